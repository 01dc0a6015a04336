//! HSN-A 7.0–7.3 substitute units: detaching a substitute from a marching unit, the Attachment
//! Phase, and the Artillery that goes with them, in the Advanced Game (HSN Sc 9), driven through
//! the sequence of play.

mod common;
use caisson_gcacw::combat::artillery_value;
use caisson_gcacw::registry::{hsn, notices};
use caisson_gcacw::scenario::Entrenchment;
use caisson_gcacw::sequence::{choose, enter, pending, Phase};
use caisson_gcacw::state::{Stage, State};
use caisson_gcacw::{invariants, substitute, victory, Gcacw, Settings, Side};
use caisson_hexmap::Hex;
use caisson_kernel::Pending;
use common::option_ids;

fn h(id: u16) -> Hex {
    Hex::new(i16::try_from(id / 100).expect("column"), i16::try_from(id % 100).expect("row"))
}

/// Sc 9 on Turn 1 with every counter off the map (Manpower kept, so the ledger still balances).
fn empty(scenario: &str) -> (Gcacw, State) {
    let (rules, mut state) =
        Gcacw::new(hsn().expect("HSN data loads"), scenario, Settings::default()).expect("scenario");
    for u in &mut state.units {
        u.hex = None;
    }
    for l in &mut state.leaders {
        l.with = None;
    }
    (rules, state)
}

/// Puts a unit on the map (organized, fatigue 1, normal side) and keeps the Manpower ledger
/// balanced by taking the difference from, or giving it to, units still off the map.
fn place(rules: &Gcacw, state: &mut State, id: &str, hex: Hex, manpower: u8) -> usize {
    let u = unit(rules, id);
    let mut diff = i32::from(manpower) - i32::from(state.units[u].manpower);
    common::place(rules, state, id, hex, manpower);
    state.units[u].exhausted = false;
    for v in 0..state.units.len() {
        if diff == 0 {
            break;
        }
        if v == u || state.units[v].hex.is_some() || substitute::is_substitute(rules, state, v) {
            continue;
        }
        let have = i32::from(state.units[v].manpower);
        let now = (have - diff).clamp(1, 20);
        diff -= have - now;
        state.units[v].manpower = u8::try_from(now).expect("small");
    }
    assert_eq!(diff, 0, "ledger balanced");
    u
}

fn unit(rules: &Gcacw, id: &str) -> usize {
    rules.unit_by_id(id).unwrap_or_else(|| panic!("{id} in the scenario"))
}

fn labels(rules: &Gcacw, state: &State) -> Vec<String> {
    match pending(rules, state) {
        Pending::Decide(d) => d.options.into_iter().map(|c| c.label).collect(),
        other => panic!("expected a decision, got {other:?}"),
    }
}

/// Starts the march of `u` with `ma` MP and declines the force march: the Moving decision.
fn march(rules: &Gcacw, state: &mut State, u: usize, ma: u8) {
    caisson_gcacw::march::begin_unit_march(rules, state, u, ma);
    if matches!(state.stage, Stage::ForceMarch { .. }) {
        choose(rules, state, "no-force-march").expect("march normally");
    }
    assert!(matches!(state.stage, Stage::Moving { .. }), "moving: {:?}", state.stage);
}

fn detach_ids(ids: &[String]) -> Vec<String> {
    ids.iter().filter(|i| i.starts_with("detach:")).cloned().collect()
}

/// HSN-A 7.1 Size and Determining Status: Cox (Manpower 8, fatigue 1) detaches in the hex where
/// its march begins: up to 6 Manpower (the Union limit), each with or without some of its
/// Artillery 2; the substitute gets the fatigue Cox had before it marched, Cox's command and
/// Tactical value, and Cox keeps the rest. No Manpower is lost.
#[test]
fn detach_in_start_hex_hsn_a_7_1() {
    let (rules, mut state) = empty("hsn-9");
    let cox = place(&rules, &mut state, "cox", h(3015), 8);
    march(&rules, &mut state, cox, 6);
    assert_eq!(state.units[cox].fatigue, 2, "the march costs a Fatigue Level");
    let ids = option_ids(&rules, &state);
    let detach = detach_ids(&ids);
    for m in 1..=6 {
        for id in [format!("detach:{m}"), format!("detach:{m}:1"), format!("detach:{m}:2")] {
            assert!(detach.contains(&id), "{id} offered: {detach:?}");
        }
    }
    assert_eq!(detach.len(), 18, "nothing above 6 Manpower or Artillery 2: {detach:?}");
    let label = labels(&rules, &state).into_iter().find(|l| l.contains("with Manpower 3 from")).expect("label");
    assert!(label.contains("Substitute Brigade U1") && label.contains("Cox") && label.contains("3015"), "{label}");

    choose(&rules, &mut state, "detach:3").expect("detach 3");
    let sub = unit(&rules, "sub-u-bde-1");
    assert_eq!(state.units[sub].hex, Some(h(3015)));
    assert_eq!(state.units[sub].manpower, 3);
    assert_eq!(state.units[cox].manpower, 5);
    assert_eq!(state.units[sub].fatigue, 1, "fatigue before the march, placed in the start hex");
    assert_eq!(substitute::command(&rules, &state, sub), "XXIII");
    assert_eq!(substitute::tactical(&rules, &state, sub), Some(2), "Cox's Tactical value (ruling R75)");
    assert_eq!(artillery_value(&rules, &state, sub), 0);
    assert_eq!(artillery_value(&rules, &state, cox), 2);
    // The march goes on: Cox may still move.
    assert!(matches!(state.stage, Stage::Moving { .. }));
    assert!(option_ids(&rules, &state).iter().any(|i| i.starts_with("move:")));
    // Detaching is no loss.
    assert!(state.losses.is_empty());
    invariants::check(&rules, &state).expect("invariants");
    // Corps command follows the parent: Schofield's XXIII Corps substitute is his (GCACW 2.1).
    let schofield = rules.catalog().index("schofield").expect("schofield");
    assert!(rules.commands(&state, schofield, sub));
    let stanley = rules.catalog().index("stanley").expect("stanley");
    assert!(!rules.commands(&state, stanley, sub), "Stanley leads IV Corps, not XXIII");
}

/// HSN-A 7.1 Placement and Fatigue: a substitute left in a hex the march entered takes the
/// parent's current Fatigue Level, and never an entrenchment (the parent left its works).
#[test]
fn detach_after_moving_takes_current_fatigue_hsn_a_7_1() {
    let (rules, mut state) = empty("hsn-9");
    let cox = place(&rules, &mut state, "cox", h(3015), 8);
    state.units[cox].entrenchment = Some(Entrenchment::Abatis);
    march(&rules, &mut state, cox, 6);
    let to = option_ids(&rules, &state).into_iter().find(|i| i.starts_with("move:")).expect("a move");
    choose(&rules, &mut state, &to).expect("move");
    let here = state.units[cox].hex.expect("on the map");
    assert_ne!(here, h(3015));
    choose(&rules, &mut state, "detach:2").expect("detach 2");
    let sub = unit(&rules, "sub-u-bde-1");
    assert_eq!(state.units[sub].hex, Some(here));
    assert_eq!(state.units[sub].fatigue, 2, "the parent's fatigue now");
    assert_eq!(state.units[sub].entrenchment, None);
}

/// HSN-A 7.1 Determining Status: detached in its start hex from an entrenched, disorganized,
/// exhausted, Demoralize-1 parent, the substitute has all of these too.
#[test]
fn detach_copies_status_hsn_a_7_1() {
    let (rules, mut state) = empty("hsn-9");
    let brown = place(&rules, &mut state, "brown", h(3015), 6);
    let unit_state = &mut state.units[brown];
    unit_state.fatigue = 0;
    unit_state.organized = false;
    unit_state.exhausted = true;
    unit_state.demoralized = 1;
    unit_state.entrenchment = Some(Entrenchment::Breastworks);
    march(&rules, &mut state, brown, 4);
    let detach = detach_ids(&option_ids(&rules, &state));
    // Confederate substitute brigades take at most 4 Manpower.
    assert!(
        detach.contains(&"detach:4".to_string()) && !detach.iter().any(|d| d.starts_with("detach:5")),
        "{detach:?}"
    );
    choose(&rules, &mut state, "detach:4").expect("detach 4");
    let sub = unit(&rules, "sub-c-bde-1");
    let s = &state.units[sub];
    assert_eq!((s.organized, s.exhausted, s.demoralized, s.fatigue), (false, true, 1, 0));
    assert_eq!(s.entrenchment, Some(Entrenchment::Breastworks));
    assert_eq!(substitute::command(&rules, &state, sub), "C");
}

/// HSN-A 7.1 and GCACW 6.2: a unit may still leave a substitute in the hex where entering an
/// enemy ZOC ends its march.
#[test]
fn detach_on_entering_enemy_zoc_hsn_a_7_1() {
    let (rules, mut state) = empty("hsn-9");
    let cox = place(&rules, &mut state, "cox", h(3015), 8);
    // An enemy two hexes away: the hex between is in its ZOC.
    let map = rules.map();
    let (mid, enemy) = map
        .neighbors(h(3015))
        .flat_map(|(_, b)| map.neighbors(b).map(move |(_, c)| (b, c)))
        .find(|&(_, c)| c.distance(h(3015)) == 2)
        .expect("a hex two away");
    place(&rules, &mut state, "brown", enemy, 6);
    march(&rules, &mut state, cox, 6);
    choose(&rules, &mut state, &format!("move:{mid}")).expect("move into the ZOC");
    let Stage::Moving { march } = &state.stage else { panic!("still deciding: {:?}", state.stage) };
    assert!(march.stopped, "entered an enemy ZOC");
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"detach:1".to_string()), "{ids:?}");
    choose(&rules, &mut state, "detach:1").expect("detach");
    let sub = unit(&rules, "sub-u-bde-1");
    assert_eq!(state.units[sub].hex, Some(mid));
}

/// HSN-A 7.1: a cavalry unit of Manpower 2 or more detaches a substitute regiment of exactly 1
/// Manpower; at Manpower 1 it detaches nothing.
#[test]
fn cavalry_detaches_one_manpower_regiment_hsn_a_7_1() {
    let (rules, mut state) = empty("hsn-9");
    let armstrong = place(&rules, &mut state, "armstrong", h(3015), 3);
    march(&rules, &mut state, armstrong, 6);
    assert_eq!(detach_ids(&option_ids(&rules, &state)), ["detach:1"]);
    choose(&rules, &mut state, "detach:1").expect("detach");
    let sub = unit(&rules, "sub-c-regt-1");
    assert_eq!(state.units[sub].manpower, 1);
    assert_eq!(substitute::command(&rules, &state, sub), "J-Cav");
    let jackson = rules.catalog().index("jackson").expect("jackson");
    assert!(rules.commands(&state, jackson, sub), "Jackson commands his division's detachment");

    let (rules, mut state) = empty("hsn-9");
    let armstrong = place(&rules, &mut state, "armstrong", h(3015), 1);
    march(&rules, &mut state, armstrong, 6);
    assert!(detach_ids(&option_ids(&rules, &state)).is_empty());
}

/// HSN-A 7.1 Command with 5.1 and 14.0: a detached substitute keeps its parent's command while it
/// is off the map for remounts or gone by an exit hex, so the leader riding it stays in command.
/// `caisson fuzz` found McCook riding a cavalry substitute sent off the map.
#[test]
fn a_substitute_off_the_map_keeps_its_command_hsn_a_7_1() {
    let (rules, mut state) = empty("hsn-9");
    let croxton = place(&rules, &mut state, "croxton-a", h(3015), 3);
    march(&rules, &mut state, croxton, 6);
    choose(&rules, &mut state, "detach:1").expect("detach");
    let sub = unit(&rules, "sub-u-regt-1");
    assert_eq!(substitute::command(&rules, &state, sub), "Cav-1");
    state.units[sub].hex = None;
    state.campaign.off_map.insert(sub);
    assert_eq!(substitute::command(&rules, &state, sub), "Cav-1", "off the map for remounts");
    state.campaign.off_map.clear();
    state.campaign.exited.insert(sub);
    assert_eq!(substitute::command(&rules, &state, sub), "Cav-1", "gone by an exit hex");
}

/// HSN-A 7.1 Counter Limits: the Confederate player has four substitute brigades; with all four
/// on the map no more may be detached.
#[test]
fn pool_is_a_strict_limit_hsn_a_7_1() {
    let (rules, mut state) = empty("hsn-9");
    let brown = place(&rules, &mut state, "brown", h(3015), 8);
    march(&rules, &mut state, brown, 6);
    for _ in 0..4 {
        choose(&rules, &mut state, "detach:1").expect("detach");
    }
    assert_eq!(state.units[brown].manpower, 4);
    assert!(detach_ids(&option_ids(&rules, &state)).is_empty(), "the pool is empty");
    invariants::check(&rules, &state).expect("invariants");
}

/// HSN-A 7.1 Counter Limits with 14.0: a substitute that has left the game by an exit hex keeps
/// its counter out of the pool (ruling R82); the next detachment takes another. `caisson fuzz`
/// found the exited counter detached again.
#[test]
fn an_exited_substitute_is_not_detached_again_hsn_a_7_1_14_0() {
    let (rules, mut state) = empty("hsn-9");
    let brown = place(&rules, &mut state, "brown", h(3015), 8);
    let first = unit(&rules, "sub-c-bde-1");
    state.units[first].manpower = 2;
    state.campaign.exited.insert(first);
    march(&rules, &mut state, brown, 6);
    let labels = labels(&rules, &state);
    assert!(labels.iter().any(|l| l.contains("Substitute Brigade C2")), "{labels:?}");
    assert!(!labels.iter().any(|l| l.contains("Substitute Brigade C1")), "{labels:?}");
    choose(&rules, &mut state, "detach:1").expect("detach");
    assert_eq!(state.units[first].hex, None, "the exited substitute stays out of the game");
    assert_eq!(state.units[unit(&rules, "sub-c-bde-2")].hex, Some(h(3015)));
}

/// HSN-A 7.3: the substitute may take some of its parent's Artillery; both then fight with their
/// new values (GCACW 7.3).
#[test]
fn detach_takes_artillery_hsn_a_7_3() {
    let (rules, mut state) = empty("hsn-9");
    let wagner = place(&rules, &mut state, "wagner", h(3015), 7);
    march(&rules, &mut state, wagner, 6);
    choose(&rules, &mut state, "detach:2:1").expect("detach with a gun");
    let sub = unit(&rules, "sub-u-bde-1");
    assert_eq!(artillery_value(&rules, &state, sub), 1);
    assert_eq!(artillery_value(&rules, &state, wagner), 1);
    assert_eq!(substitute::artillery(&rules, &state, sub), 1);
}

/// HSN-A 7.0: only the Advanced Game has substitutes: a Basic scenario offers no detachment and
/// no Attachment Phase; Sc 9 lists the rule as enforced.
#[test]
fn basic_scenarios_have_no_substitutes_hsn_a_7_0() {
    let (rules, mut state) = empty("hsn-2");
    let cox = place(&rules, &mut state, "cox", h(3015), 8);
    march(&rules, &mut state, cox, 6);
    assert!(detach_ids(&option_ids(&rules, &state)).is_empty());
    assert!(rules.unit_by_id("sub-u-bde-1").is_none(), "no substitute counters in play");
    enter(&rules, &mut state, Phase::Attachment);
    assert!(!matches!(state.stage, Stage::Attachment { .. }));
    let lines = notices("hsn-9").expect("notices");
    assert!(!lines.iter().any(|l| l.contains("Substitute units")), "{lines:#?}");
}

/// HSN-A 7.2: a substitute stacked with a friendly infantry unit attaches to it in the
/// Attachment Phase and goes back to the pool; Manpower adds up and nothing is lost.
#[test]
fn substitute_attaches_and_returns_to_pool_hsn_a_7_2() {
    let (rules, mut state) = empty("hsn-9");
    let cox = place(&rules, &mut state, "cox", h(3015), 8);
    march(&rules, &mut state, cox, 6);
    choose(&rules, &mut state, "detach:3").expect("detach");
    choose(&rules, &mut state, "end").expect("end the march");
    let sub = unit(&rules, "sub-u-bde-1");
    let ruger = place(&rules, &mut state, "ruger", h(3015), 7);
    enter(&rules, &mut state, Phase::Attachment);
    assert_eq!(state.stage, Stage::Attachment { side: Side::Union });
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"attach:sub-u-bde-1:cox".to_string()), "{ids:?}");
    assert!(ids.contains(&"attach:sub-u-bde-1:ruger".to_string()), "{ids:?}");
    assert!(
        !ids.iter().any(|i| i.starts_with("attach:cox:") || i.starts_with("attach:ruger:")),
        "divisions never attach"
    );
    let label = labels(&rules, &state).into_iter().find(|l| l.contains("to Ruger")).expect("label");
    assert!(label.contains("Manpower 3") && label.contains("Manpower 7") && label.contains("3015"), "{label}");
    choose(&rules, &mut state, "attach:sub-u-bde-1:ruger").expect("attach");
    assert_eq!(state.units[ruger].manpower, 10);
    assert_eq!(state.units[sub].hex, None);
    assert_eq!(state.units[sub].manpower, 0);
    assert!(!victory::destroyed(&rules, &state, sub), "back in the pool, not destroyed");
    assert!(state.losses.is_empty());
    invariants::check(&rules, &state).expect("invariants");
    // Ruger at 10 cannot take Cox's 5 (cap 11), and nothing else may attach: the phase ends.
    assert!(!matches!(state.stage, Stage::Attachment { side: Side::Union }));
}

/// HSN-A 7.2 Determining Status: the larger attaching unit's Strength side, the higher fatigue,
/// exhaustion from either, the worse demoralization, the survivor's own entrenchment, and the
/// Artillery of both (7.3).
#[test]
fn attachment_status_hsn_a_7_2() {
    let (rules, mut state) = empty("hsn-9");
    let waters = place(&rules, &mut state, "waters", h(3015), 2);
    let moore = place(&rules, &mut state, "o-moore", h(3015), 3);
    state.units[waters].entrenchment = Some(Entrenchment::Abatis);
    state.units[waters].demoralized = 1;
    state.units[moore].organized = false;
    state.units[moore].fatigue = 3;
    state.units[moore].exhausted = true;
    state.units[moore].entrenchment = Some(Entrenchment::Breastworks);
    state.units[moore].demoralized = 2;
    state.campaign.substitutes.artillery.insert(moore, 1);
    enter(&rules, &mut state, Phase::Attachment);
    choose(&rules, &mut state, "attach:o-moore:waters").expect("attach");
    let o = &state.units[waters];
    assert_eq!(o.manpower, 5);
    assert!(!o.organized, "Post had more Manpower: its disorganized side");
    assert_eq!((o.fatigue, o.exhausted, o.demoralized), (3, true, 2));
    assert_eq!(o.entrenchment, Some(Entrenchment::Abatis), "the survivor's own");
    assert_eq!(substitute::artillery(&rules, &state, waters), 1);
    assert!(state.campaign.substitutes.attached.contains(&moore));
    assert!(!victory::destroyed(&rules, &state, moore), "attached, not destroyed");
    invariants::check(&rules, &state).expect("invariants");
}

/// HSN-A 7.2 Size: a Union infantry brigade may not pass 6 Manpower, a Union regiment 3.
#[test]
fn attachment_caps_hsn_a_7_2() {
    let (rules, mut state) = empty("hsn-9");
    place(&rules, &mut state, "waters", h(3015), 4);
    place(&rules, &mut state, "o-moore", h(3015), 3);
    place(&rules, &mut state, "91-in", h(3015), 2);
    let ids: Vec<(usize, usize)> = substitute::attachments(&rules, &state, Side::Union);
    let names: Vec<String> =
        ids.iter().map(|&(a, t)| format!("{}>{}", rules.unit_id(&state, a), rules.unit_id(&state, t))).collect();
    // 4 + 3 > 6; 3 + 2 and 4 + 2 stay within 6; regiment 91 IN (2) + 3 or 4 would pass 3.
    assert!(
        !names.contains(&"o-moore>waters".to_string()) && !names.contains(&"waters>o-moore".to_string()),
        "{names:?}"
    );
    assert!(names.contains(&"91-in>waters".to_string()) && names.contains(&"91-in>o-moore".to_string()), "{names:?}");
    assert!(!names.iter().any(|n| n.ends_with(">91-in")), "{names:?}");
}

/// HSN-A 7.2 Union Commands: DN infantry attaches only within DN; IV and XXIII infantry attach
/// to each other but not to DE (ruling R76).
#[test]
fn union_command_groups_hsn_a_7_2() {
    let (rules, mut state) = empty("hsn-9");
    place(&rules, &mut state, "140-in", h(3015), 1);
    place(&rules, &mut state, "thomas-dn", h(3015), 2);
    place(&rules, &mut state, "j-miller", h(3015), 4);
    place(&rules, &mut state, "91-in", h(3015), 1);
    place(&rules, &mut state, "cox", h(3015), 5);
    let names: Vec<String> = substitute::attachments(&rules, &state, Side::Union)
        .iter()
        .map(|&(a, t)| format!("{}>{}", rules.unit_id(&state, a), rules.unit_id(&state, t)))
        .collect();
    assert!(names.contains(&"140-in>thomas-dn".to_string()), "{names:?}");
    assert!(!names.contains(&"140-in>j-miller".to_string()) && !names.contains(&"140-in>cox".to_string()), "{names:?}");
    assert!(names.contains(&"91-in>cox".to_string()), "XXIII within IV/XXIII: {names:?}");
    assert!(!names.contains(&"91-in>j-miller".to_string()), "not to DE: {names:?}");
    assert!(!names.contains(&"thomas-dn>j-miller".to_string()), "{names:?}");
}

/// HSN-A 7.2 Special Attachment: a cavalry regiment attaches only to a cavalry brigade, never to
/// infantry; cavalry brigades never attach. A leader with the attaching unit goes with it.
#[test]
fn cavalry_regiment_attaches_to_brigade_hsn_a_7_2() {
    let (rules, mut state) = empty("hsn-9");
    let tn = place(&rules, &mut state, "5-tn", h(3015), 1);
    let g = place(&rules, &mut state, "g-johnson-a", h(3015), 2);
    place(&rules, &mut state, "croxton-a", h(3015), 3);
    place(&rules, &mut state, "cox", h(3015), 5);
    let knipe = rules.leader_by_id("knipe").expect("knipe");
    state.leaders[knipe].with = Some(tn);
    invariants::check(&rules, &state).expect("Knipe with his regiment");
    let names: Vec<String> = substitute::attachments(&rules, &state, Side::Union)
        .iter()
        .map(|&(a, t)| format!("{}>{}", rules.unit_id(&state, a), rules.unit_id(&state, t)))
        .collect();
    assert_eq!(names, ["5-tn>g-johnson-a"], "Croxton-A is full at 3, Cox is infantry");
    enter(&rules, &mut state, Phase::Attachment);
    choose(&rules, &mut state, "attach:5-tn:g-johnson-a").expect("attach");
    assert_eq!(state.units[g].manpower, 3);
    assert_eq!(state.leaders[knipe].with, Some(g), "Knipe goes to the survivor");
    invariants::check(&rules, &state).expect("invariants");
}

/// HSN-A 1.0, 7.2: the Union player attaches first, then the Confederate player; `done` passes
/// on, and the Action Cycle follows.
#[test]
fn attachment_phase_order_hsn_a_7_2() {
    let (rules, mut state) = empty("hsn-9");
    place(&rules, &mut state, "waters", h(3015), 2);
    place(&rules, &mut state, "o-moore", h(3015), 2);
    place(&rules, &mut state, "smith-b", h(1010), 2);
    place(&rules, &mut state, "brown", h(1010), 4);
    enter(&rules, &mut state, Phase::Attachment);
    assert_eq!(state.stage, Stage::Attachment { side: Side::Union });
    choose(&rules, &mut state, "done").expect("Union done");
    assert_eq!(state.stage, Stage::Attachment { side: Side::Confederate });
    assert!(option_ids(&rules, &state).contains(&"attach:smith-b:brown".to_string()));
    choose(&rules, &mut state, "done").expect("Confederate done");
    assert_eq!(state.phase, Phase::ActionCycle);
}

/// GCACW 10.2: an enemy pontoon bridge goes at the end of the Attachment Phase when that phase
/// has left a unit of Combat 5 or more in one of its two hexes; Combat 4 leaves it standing.
#[test]
fn attachment_overruns_an_enemy_pontoon_gcacw_10_2() {
    use caisson_gcacw::bridges::{self, Pontoon};
    for attach in [false, true] {
        let (rules, mut state) = empty("hsn-9");
        let ruger = place(&rules, &mut state, "ruger", h(3015), 4);
        place(&rules, &mut state, "o-moore", h(3015), 2);
        let site = bridges::key(h(3015), h(3016));
        state.bridges.pontoons.push(Pontoon { side: site, owner: Side::Confederate, road: false });
        enter(&rules, &mut state, Phase::Attachment);
        assert_eq!(state.stage, Stage::Attachment { side: Side::Union });
        choose(&rules, &mut state, if attach { "attach:o-moore:ruger" } else { "done" }).expect("choice");
        assert!(!matches!(state.stage, Stage::Attachment { .. }), "the phase is over: {:?}", state.stage);
        if attach {
            assert_eq!(state.units[ruger].manpower, 6);
            assert!(state.bridges.pontoons.is_empty(), "Ruger at Combat 6 destroys the Confederate pontoon");
        } else {
            assert_eq!(state.bridges.pontoons.len(), 1, "Combat 4 leaves the pontoon standing");
        }
    }
}
