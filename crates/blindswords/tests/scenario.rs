//! The Perryville scenarios (`data/perryville/scenarios`), checked against rulebook section 16
//! (set-ups, reinforcements, chits, special rules, victory), and the loader's refusal of broken
//! files.

use std::path::{Path, PathBuf};

use caisson_blindswords::catalog::{Catalog, Side};
use caisson_blindswords::scenario::{
    FogSix, ObjectiveCondition, Placement, RuleKind, Scenario, Start, Status, Trigger, Victory, SCENARIOS,
};
use caisson_hexmap::Hex;
use caisson_kernel::data::DataDir;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/perryville")
}

fn catalog() -> Catalog {
    match Catalog::load(&DataDir::builtin().join("perryville")) {
        Ok(c) => c,
        Err(e) => panic!("catalog load: {e}"),
    }
}

fn scenario(id: &str) -> (Catalog, Scenario) {
    let c = catalog();
    match Scenario::load(&DataDir::builtin().join("perryville"), id, &c) {
        Ok(s) => (c, s),
        Err(e) => panic!("{id}: {e}"),
    }
}

fn hex(s: &str) -> Hex {
    s.parse().unwrap_or_else(|_| panic!("bad hex {s}"))
}

/// Units of a side brought in by set-up lines, and by reinforcements.
fn counts(c: &Catalog, s: &Scenario, side: Side) -> (usize, usize) {
    let units = s.units(c);
    let of =
        |setup: bool| units.iter().filter(|(u, st)| u.side == side && matches!(st, Start::Setup(_)) == setup).count();
    (of(true), of(false))
}

/// Set-up lines naming a unit of the side by itself (the units the text lists one by one).
fn named(c: &Catalog, s: &Scenario, side: Side) -> usize {
    s.setup.iter().filter_map(|r| r.unit.as_deref()).filter(|u| c.unit(u).is_some_and(|u| u.side == side)).count()
}

fn setup_of<'a>(s: &'a Scenario, key: &str) -> &'a caisson_blindswords::scenario::Setup {
    s.setup
        .iter()
        .find(|r| r.unit.as_deref() == Some(key) || r.brigade.as_deref() == Some(key))
        .unwrap_or_else(|| panic!("{key} not set up"))
}

#[test]
fn all_five_scenarios_load() {
    let c = catalog();
    let all = Scenario::load_all(&DataDir::builtin().join("perryville"), &c).expect("scenarios");
    let ids: Vec<&str> = all.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, SCENARIOS);
    assert_eq!(all.iter().map(|s| s.turns).collect::<Vec<_>>(), [8, 14, 16, 14, 14]);
}

// EX 16.0: D. McCook's four regiments and Barnett; Liddell's five and Swett; Gay's three and
// Laiboldt's four with Hescock as reinforcements.
#[test]
fn ex_16_0_units_per_side() {
    let (c, s) = scenario("pv-16-0");
    assert_eq!(counts(&c, &s, Side::Union), (5, 8));
    assert_eq!(counts(&c, &s, Side::Confederate), (6, 0));
    let r7 = setup_of(&s, "c-7ar");
    assert_eq!((r7.placement(), r7.status), (Some(Placement::Hex(hex("1628"))), Some(Status::Skirmish)));
    assert_eq!(setup_of(&s, "u-barnett-art").placement(), Some(Placement::Hex(hex("1125"))));
    let gay = &s.reinforcement[0];
    assert_eq!(
        (gay.turn, gay.chits.as_slice(), gay.entry[0].from),
        (Some(2), ["gay".to_string()].as_slice(), hex("1025"))
    );
    assert_eq!(s.reinforcement[1].turn, Some(3));
}

// EX 16.0c: only rows 22-32; 16.0a: one key and one random event; a Fog of War 6 does nothing.
#[test]
fn ex_16_0_area_chits_and_victory() {
    let (_, s) = scenario("pv-16-0");
    assert_eq!((s.area.rows, s.area.retreat_blocked_box), ([22, 32], Some(3)));
    assert!(s.area.contains(hex("2722")) && !s.area.contains(hex("2721")) && !s.area.contains(hex("2733")));
    assert_eq!((s.chits.key, s.chits.random, s.chits.events.len()), (1, 1, 6));
    assert!(s.rules().any(|r| matches!(r.kind, RuleKind::FogOfWarSix { result: FogSix::NoEffect })));
    assert!(s.rules().any(|r| matches!(&r.kind, RuleKind::NoArtilleryPhase { turns } if turns == &[1])));
    assert!(s.rules().any(|r| r.optional && matches!(r.kind, RuleKind::SoloBot { .. })));
    match &s.victory {
        Victory::Control { side, hexes, need, otherwise, .. } => {
            assert_eq!((*side, *need, *otherwise), (Side::Union, 3, Side::Confederate));
            assert_eq!(hexes, &["2127", "2428", "2525", "2929"].map(hex));
        }
        v => panic!("16.0 victory is by control: {v:?}"),
    }
}

// EX 16.1 set-up: 32 Union units listed one by one (Terrill, Starkweather, Webster, Harris, Lytle,
// the two Sheridan batteries, Gay), 66 Confederate; eight Union brigades and Smith placed
// "within N hexes".
#[test]
fn ex_16_1_units_per_side() {
    let (c, s) = scenario("pv-16-1");
    assert_eq!(named(&c, &s, Side::Union), 32);
    assert_eq!(named(&c, &s, Side::Confederate), 66);
    let within = s.setup.iter().filter(|r| r.brigade.is_some()).count();
    assert_eq!(within, 9);
    // 32 named + the eight On Hold brigades (38 units); Walker (6) and II Corps (40) off-board.
    assert_eq!(counts(&c, &s, Side::Union), (70, 6 + 40));
    // 66 named + Smith (6); Wheeler (4) off-board.
    assert_eq!(counts(&c, &s, Side::Confederate), (72, 4));
}

#[test]
fn ex_16_1_spot_checks() {
    let (_, s) = scenario("pv-16-1");
    let at = |k: &str| setup_of(&s, k).placement();
    assert_eq!(at("u-bush-stone-art"), Some(Placement::Hex(hex("2012"))));
    assert_eq!(setup_of(&s, "u-42in").status, Some(Status::Shaken));
    assert_eq!(setup_of(&s, "u-33oh").status, Some(Status::Skirmish));
    assert_eq!(setup_of(&s, "u-10oh").status, Some(Status::Skirmish));
    assert_eq!(at("u-hotchkiss-art"), Some(Placement::Hex(hex("1620"))));
    assert_eq!(at("c-stanford-art"), Some(Placement::Hex(hex("3413"))));
    assert_eq!(at("greusel"), Some(Placement::Within { center: hex("1827"), radius: 2 }));
    assert_eq!(at("p-smith"), Some(Placement::Within { center: hex("4031"), radius: 3 }));
    assert_eq!(s.buell_box.as_deref(), Some("Buell is unaware"));
    let control: Vec<Hex> = s.marker.iter().map(|m| m.hex).collect();
    assert_eq!(control, ["2012", "2419", "2127"].map(hex));
    assert!(s.on_hold.brigades.iter().any(|b| b == "powell") && s.on_hold.units.len() == 2);
    assert!(s.chits.activation.iter().any(|x| x == "a-mccook"));
    // 20-minute turns to 5 PM, then 30: 4 PM is turn 6, 5:30 turn 10, 6 PM turn 11.
    assert_eq!((s.clock[5].as_str(), s.clock[9].as_str(), s.clock[10].as_str()), ("4:00 PM", "5:30 PM", "6:00 PM"));
    // 16.1b Powell released at 4 PM; 16.1e Bragg's Plan on the first two turns.
    assert!(s
        .rules()
        .any(|r| matches!(&r.kind, RuleKind::TimedRelease { turn: 6, brigades } if brigades == &["powell"])));
    assert!(s
        .rules()
        .any(|r| matches!(&r.kind, RuleKind::ActivationModifier { value: -1, turns, .. } if turns == &[1, 2])));
    let wheeler = s.reinforcement.iter().find(|r| r.brigades == ["wheeler"]).expect("Wheeler");
    assert_eq!((wheeler.trigger, wheeler.near, wheeler.within), (Trigger::IiCorpsReleased, Some(hex("3736")), Some(2)));
    let ii = s.reinforcement.iter().find(|r| r.brigades.len() == 7).expect("II Corps");
    assert_eq!((ii.max_brigades_per_turn, ii.later_from_turn), (Some(2), Some(11)));
}

// EX 16.1 Victory Conditions.
#[test]
fn ex_16_1_victory_points() {
    let (_, s) = scenario("pv-16-1");
    let Victory::Points { per_turn, objective, loss_min_cr, levels, sudden_death, .. } = &s.victory else {
        panic!("16.1 is scored in VP")
    };
    assert_eq!(per_turn.iter().map(|t| t.hex).collect::<Vec<_>>(), ["2419", "2127", "2012"].map(hex));
    let vp =
        |side: Side, h: &str| objective.iter().find(|o| o.side == side && o.hex == hex(h)).map(|o| (o.vp, o.only_if));
    assert_eq!(vp(Side::Union, "2428"), Some((5, None)));
    assert_eq!(vp(Side::Union, "3729"), Some((10, None)));
    assert_eq!(vp(Side::Confederate, "1011"), Some((10, None)));
    assert_eq!(vp(Side::Confederate, "3440"), Some((10, Some(ObjectiveCondition::IiCorpsEntered))));
    assert_eq!(*loss_min_cr, 2);
    assert_eq!(levels.iter().map(|l| l.margin).collect::<Vec<_>>(), [3, 6, 11]);
    assert!(sudden_death.as_ref().is_some_and(|d| d.per_turn_hexes == 3 && d.objectives == 2));
}

// EX 16.2: Union sets up first; the brigades "within 2 hexes"; reinforcements at 10:20, 11:00,
// 11:40 and noon; Smith at 11:00 at 4026.
#[test]
fn ex_16_2_set_up_and_reinforcements() {
    let (c, s) = scenario("pv-16-2");
    assert_eq!(s.sets_up_first, Some(Side::Union));
    assert_eq!(s.buell_box.as_deref(), Some("Buell hears artillery fire"));
    // Hescock, Barnett, Gay's three by name; nine brigades within 2 hexes (44 units).
    assert_eq!(named(&c, &s, Side::Union), 5);
    assert_eq!(counts(&c, &s, Side::Union), (49, 45));
    // Twelve brigades within 2 hexes; Smith and Wheeler later.
    assert_eq!(counts(&c, &s, Side::Confederate), (66, 10));
    assert_eq!(setup_of(&s, "u-hotchkiss-art").placement(), Some(Placement::Hex(hex("1920"))));
    assert_eq!(setup_of(&s, "wharton").placement(), Some(Placement::Within { center: hex("2400"), radius: 2 }));
    let when: Vec<(Option<u16>, Option<&str>)> =
        s.reinforcement.iter().map(|r| (r.turn, r.time.as_deref())).take(5).collect();
    assert_eq!(
        when,
        [
            (Some(5), Some("10:20 AM")),
            (Some(7), Some("11:00 AM")),
            (Some(9), Some("11:40 AM")),
            (Some(10), Some("12:00 PM")),
            (Some(7), Some("11:00 AM"))
        ]
    );
    assert_eq!(s.reinforcement[0].chits, ["rousseau"]);
    assert_eq!(s.reinforcement[0].trigger, Trigger::Released);
    assert_eq!(s.reinforcement[4].entry[0].from, hex("4026"));
    // 16.2a: Brigade Initiative is out; six Union events and seven Confederate.
    assert!(!s.chits.events.iter().any(|e| e == "u-brigade-initiative"));
    assert_eq!(s.chits.events.len(), 13);
}

#[test]
fn ex_16_2_victory_hexes() {
    let (_, s) = scenario("pv-16-2");
    let Victory::Points { per_turn, objective, sudden_death, .. } = &s.victory else { panic!("VP") };
    assert_eq!(per_turn.iter().map(|t| t.hex).collect::<Vec<_>>(), ["2419", "2525", "2332"].map(hex));
    // 3729 scores 5 VP for either side.
    let both: Vec<(Side, u16)> = objective.iter().filter(|o| o.hex == hex("3729")).map(|o| (o.side, o.vp)).collect();
    assert_eq!(both, [(Side::Union, 5), (Side::Confederate, 5)]);
    assert!(sudden_death.is_none());
}

// EX 16.3: 16.1 plus the Right Hook, revealed by 4 PM.
#[test]
fn ex_16_3_right_hook() {
    let (c, s) = scenario("pv-16-3");
    let (_, base) = scenario("pv-16-1");
    assert_eq!(counts(&c, &s, Side::Union), counts(&c, &base, Side::Union));
    let hook = s
        .rules()
        .find_map(|r| match &r.kind {
            RuleKind::RightHook { reveal_by_turn, vp, remove_chits, add_chits, entry, .. } => {
                Some((*reveal_by_turn, *vp, remove_chits.clone(), add_chits.clone(), entry[0].to))
            }
            _ => None,
        })
        .expect("Right Hook");
    assert_eq!(s.clock[usize::from(hook.0) - 1], "4:00 PM");
    assert_eq!(
        (hook.1, hook.2, hook.3),
        (5, vec!["a-mccook".to_string()], vec!["van-cleve".to_string(), "wood".to_string()])
    );
    // West of 18XX on the south edge.
    assert_eq!(hook.4, hex("1740"));
}

// EX 16.4: everything released, no Buell track, exits from 6 PM, the Union hexes with 3729.
#[test]
fn ex_16_4_great_day() {
    let (c, s) = scenario("pv-16-4");
    assert!(s.on_hold.brigades.is_empty() && s.buell_box.is_none());
    assert_eq!(named(&c, &s, Side::Confederate), 66);
    assert!(s.rules().any(|r| matches!(r.kind, RuleKind::NoBuellTrack)));
    assert!(s.rules().any(|r| matches!(r.kind, RuleKind::FogOfWarSix { result: FogSix::BuellCommands })));
    assert!(!s.rules().any(|r| matches!(r.kind, RuleKind::ActivationModifier { .. })), "16.1e is not part of 16.4");
    let exit = s
        .rules()
        .find_map(|r| match &r.kind {
            RuleKind::ExitHexes { from_turn, hexes, blocker, .. } => Some((*from_turn, hexes.clone(), *blocker)),
            _ => None,
        })
        .expect("exits");
    assert_eq!(s.clock[usize::from(exit.0) - 1], "6:00 PM");
    assert_eq!((exit.1, exit.2), (vec![hex("4009"), hex("4017")], hex("4009")));
    let Victory::GreatDay { union_hexes, union_need, ratio, .. } = &s.victory else { panic!("16.4 victory") };
    assert_eq!(union_hexes, &["2428", "3729", "3908", "4017"].map(hex));
    assert_eq!((*union_need, *ratio), (3, 2));
}

// --- broken copies ---

fn broken(name: &str, id: &str, edit: impl Fn(&str) -> String) -> (tempfile::TempDir, String) {
    let tmp = tempfile::Builder::new().prefix(&format!("caisson-pv-scenario-{name}-")).tempdir().expect("temp dir");
    let out = tmp.path();
    std::fs::create_dir_all(out.join("scenarios")).expect("temp dir");
    for f in ["counters.csv", "commands.toml", "chits.toml"] {
        std::fs::copy(dir().join(f), out.join(f)).expect("copy");
    }
    let text = edit(&std::fs::read_to_string(dir().join("scenarios").join(format!("{id}.toml"))).expect("read"));
    std::fs::write(out.join("scenarios").join(format!("{id}.toml")), &text).expect("write");
    (tmp, text)
}

fn refused(name: &str, id: &str, needle: &str, edit: impl Fn(&str) -> String, expect: &str) {
    let (d, text) = broken(name, id, edit);
    let dd = DataDir::on_disk(d.path());
    let c = Catalog::load(&dd).expect("catalog");
    let msg = match Scenario::load(&dd, id, &c) {
        Ok(_) => panic!("a broken scenario loaded"),
        Err(e) => e.to_string(),
    };
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in file"));
    let want = format!("{id}.toml:{}", text[..at].matches('\n').count() + 1);
    assert!(msg.contains(&want), "expected `{want}` in: {msg}");
    assert!(msg.contains(expect), "expected `{expect}` in: {msg}");
}

#[test]
fn an_unknown_unit_is_refused() {
    refused("unit", "pv-16-0", "u-52ohx", |t| t.replacen("\"u-52oh\"", "\"u-52ohx\"", 1), "unknown unit `u-52ohx`");
}

#[test]
fn a_unit_set_up_twice_is_refused() {
    refused(
        "twice",
        "pv-16-0",
        "\"u-85il\"",
        |t| t.replacen("\"u-52oh\"", "\"u-85il\"", 1),
        "comes into the scenario twice",
    );
}

#[test]
fn a_unit_both_set_up_and_arriving_is_refused() {
    refused(
        "both",
        "pv-16-0",
        "\"u-2mi-cav\"",
        |t| t.replacen("unit = \"u-52oh\"", "unit = \"u-2mi-cav\"", 1),
        "comes into the scenario twice",
    );
}

#[test]
fn a_brigade_set_up_twice_is_refused() {
    refused(
        "brig",
        "pv-16-2",
        "\"greusel\"",
        |t| t.replacen("brigade = \"laiboldt\"", "brigade = \"greusel\"", 1),
        "brigade `greusel`",
    );
}

#[test]
fn a_hex_off_the_grid_is_refused() {
    refused(
        "grid",
        "pv-16-1",
        "\"4131\"",
        |t| t.replacen("near = \"4031\"", "near = \"4131\"", 1),
        "outside the scenario's area",
    );
}

// EX 16.0c: set-ups lie inside rows 22-32.
#[test]
fn a_set_up_outside_the_area_is_refused() {
    refused(
        "area",
        "pv-16-0",
        "\"1133\"",
        |t| t.replacen("hex = \"1128\"", "hex = \"1133\"", 1),
        "outside the scenario's area",
    );
}

#[test]
fn a_reinforcement_after_the_last_turn_is_refused() {
    refused("turn", "pv-16-0", "\"u-2mi-cav\"", |t| t.replacen("turn = 2\n", "turn = 9\n", 1), "field `turn`");
}

#[test]
fn a_reinforcement_time_that_is_not_its_turn_is_refused() {
    refused(
        "time",
        "pv-16-2",
        "\"harris\"",
        |t| t.replacen("time = \"10:20 AM\"", "time = \"10:40 AM\"", 1),
        "field `time`",
    );
}

#[test]
fn a_clock_of_the_wrong_length_is_refused() {
    refused(
        "clock",
        "pv-16-0",
        "clock =",
        |t| t.replacen("\"9:20 AM\"]", "]", 1).replacen(", ]", "]", 1),
        "field `clock`",
    );
}

#[test]
fn an_unknown_chit_is_refused() {
    refused(
        "chit",
        "pv-16-0",
        "\"sheridn\"",
        |t| t.replacen("activation = [\"sheridan\"", "activation = [\"sheridn\"", 1),
        "unknown chit",
    );
}

#[test]
fn an_event_listed_as_activation_is_refused() {
    refused(
        "kind",
        "pv-16-0",
        "\"u-rally\", \"buckner\"",
        |t| t.replacen("activation = [\"sheridan\", \"buckner\"]", "activation = [\"u-rally\", \"buckner\"]", 1),
        "Event chit",
    );
}

#[test]
fn a_special_rule_turn_outside_the_scenario_is_refused() {
    refused(
        "rule",
        "pv-16-1",
        "title = \"Bragg's Plan\"",
        |t| t.replacen("turns = [1, 2]", "turns = [1, 15]", 1),
        "special_rule 16.1e: field `turns`",
    );
}

#[test]
fn an_unknown_special_rule_kind_is_refused() {
    refused(
        "kind2",
        "pv-16-4",
        "[[special_rule]]\ntitle = \"No Buell roll\"",
        |t| t.replacen("kind = \"no-buell-track\"", "kind = \"no-buel-track\"", 1),
        "no-buel-track",
    );
}

#[test]
fn a_victory_hex_off_the_grid_is_refused() {
    refused("vhex", "pv-16-0", "\"0927\"", |t| t.replacen("hexes = [\"2127\"", "hexes = [\"0927\"", 1), "off the grid");
}

#[test]
fn a_victory_need_above_the_hexes_is_refused() {
    refused("need", "pv-16-0", "[victory]", |t| t.replacen("need = 3", "need = 5", 1), "field `need`");
}

#[test]
fn an_unknown_key_is_refused() {
    refused(
        "key",
        "pv-16-0",
        "weather = \"rain\"",
        |t| t.replacen("turns = 8\n", "turns = 8\nweather = \"rain\"\n", 1),
        "weather",
    );
}

// the afternoon clock and the night turns are reconstructed; the morning clocks follow
// from 20-minute turns (EX 2.9) and the times the scenarios print.
#[test]
fn reconstructed_parts_are_listed() {
    let (_, s) = scenario("pv-16-1");
    let r = s.reconstructed();
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r[0].starts_with("clock: reconstructed") && r[1].starts_with("16.1g night clock"));
    assert!(scenario("pv-16-2").1.reconstructed().is_empty());
}

#[test]
fn a_reinforcement_entry_off_the_grid_is_refused() {
    refused(
        "entry",
        "pv-16-1",
        "brigades = [\"walker\"]",
        |t| t.replacen("entry = [\"1018-1025\"]", "entry = [\"0918-1025\"]", 1),
        "off the grid",
    );
}

#[test]
fn a_marker_off_the_grid_is_refused() {
    refused(
        "marker",
        "pv-16-1",
        "hex = \"2041\"",
        |t| {
            t.replacen(
                "hex = \"2012\"\nsource = \"EX 16.1 Markers\"",
                "hex = \"2041\"\nsource = \"EX 16.1 Markers\"",
                1,
            )
        },
        "marker: field `hex`",
    );
}

// EX 5.1, 5.2: one key and three random events need four events a side.
#[test]
fn more_event_draws_than_events_are_refused() {
    refused("random", "pv-16-0", "random =", |t| t.replacen("random = 1", "random = 3", 1), "field `random`");
}

#[test]
fn a_set_up_line_without_a_place_is_refused() {
    refused("place", "pv-16-0", "unit = \"u-52oh\"", |t| t.replacen("hex = \"1127\"\n", "", 1), "give the field `hex`");
}

#[test]
fn victory_levels_that_do_not_rise_are_refused() {
    refused("levels", "pv-16-2", "[victory]", |t| t.replacen("{ margin = 6,", "{ margin = 2,", 1), "field `levels`");
}

#[test]
fn an_unknown_on_hold_brigade_is_refused() {
    refused(
        "hold",
        "pv-16-2",
        "\"harriss\"",
        |t| {
            t.replacen(
                "brigades = [\"harris\", \"lytle\", \"webster\"",
                "brigades = [\"harriss\", \"lytle\", \"webster\"",
                1,
            )
        },
        "unknown brigade `harriss`",
    );
}

#[test]
fn an_on_hold_brigade_that_never_enters_is_refused() {
    refused(
        "held",
        "pv-16-2",
        "[on_hold]",
        |t| t.replacen("brigades = [\"harris\", \"lytle\"", "brigades = [\"harris\", \"harker\", \"lytle\"", 1),
        "`harker` is On Hold",
    );
}

// EX 15.0: each side may have at most two units in Skirmish Order.
#[test]
fn a_third_skirmisher_is_refused() {
    refused(
        "skirmish",
        "pv-16-1",
        "status = \"skirmish\"",
        |t| {
            t.replacen(
                "unit = \"u-2oh\"\nhex = \"2215\"\n",
                "unit = \"u-2oh\"\nhex = \"2215\"\nstatus = \"skirmish\"\n",
                1,
            )
        },
        "at most 2 (EX 15.0)",
    );
}

// EX 3.1: 12 SP a hex, a larger unit alone (3.1d), cavalry only with cavalry and horse artillery
// (3.1c). The reconstructed strengths must fit every exact-hex set-up of the text. Artillery
// counts three quarters of its SP (SR 3.1a's example, 6 SP as 4.5; the table itself is A-50).
#[test]
fn ex_3_1_exact_hex_set_ups_fit_the_stacking_limit() {
    use caisson_blindswords::catalog::UnitType;
    use std::collections::BTreeMap;
    let c = catalog();
    for id in SCENARIOS {
        let (_, s) = scenario(id);
        let mut hexes: BTreeMap<Hex, Vec<&caisson_blindswords::catalog::Unit>> = BTreeMap::new();
        for (u, st) in s.units(&c) {
            if let Start::Setup(i) = st {
                if let Some(Placement::Hex(h)) = s.setup[i].placement() {
                    hexes.entry(h).or_default().push(u);
                }
            }
        }
        for (h, units) in hexes {
            let eighths: u32 = units
                .iter()
                .map(|u| u32::from(u.starting().sp.halves()) * if u.ty.is_artillery() { 3 } else { 4 })
                .sum();
            assert!(units.len() == 1 || eighths <= 12 * 8, "{id} {h}: {eighths} eighths of an SP");
            let cav = units.iter().any(|u| u.ty == UnitType::Cavalry);
            let foot = units.iter().any(|u| matches!(u.ty, UnitType::Infantry | UnitType::Artillery));
            assert!(!(cav && foot), "{id} {h}: cavalry with infantry or foot artillery");
        }
    }
}

#[test]
fn a_reinforcement_with_neither_turn_nor_trigger_is_refused() {
    refused(
        "noturn",
        "pv-16-2",
        "brigades = [\"p-smith\"]",
        |t| t.replacen("turn = 7\ntime = \"11:00 AM\"\nbrigades = [\"p-smith\"]", "brigades = [\"p-smith\"]", 1),
        "field `turn`: needed",
    );
}

#[test]
fn a_later_entry_without_its_turn_is_refused() {
    refused(
        "later",
        "pv-16-1",
        "brigades = [\"beatty\"",
        |t| t.replacen("later_from_turn = 11\n", "", 1),
        "`later_entry` and `later_from_turn`",
    );
}

/// The other checks of the loader, one broken copy each: (scenario, text, replacement, a needle
/// on the line the error names, what the message says).
#[test]
fn every_other_check_refuses_a_broken_copy() {
    let cases: [(&str, &str, &str, &str, &str); 15] = [
        ("pv-16-0", "rows = [22, 32]", "rows = [32, 22]", "[area]", "area: field"),
        (
            "pv-16-0",
            "activation = [\"sheridan\", \"buckner\"]",
            "activation = [\"sheridan\", \"sheridan\"]",
            "activation =",
            "listed twice",
        ),
        ("pv-16-0", "chits = [\"gay\"]", "chits = [\"gey\"]", "\"gey\"", "field `chits`"),
        ("pv-16-1", "units = [\"u-hescock-art\"", "units = [\"u-hescok-art\"", "\"u-hescok-art\"", "unknown unit"),
        ("pv-16-2", "brigade = \"greusel\"", "brigade = \"grusel\"", "\"grusel\"", "unknown brigade"),
        (
            "pv-16-0",
            "unit = \"u-52oh\"\nhex",
            "unit = \"u-52oh\"\nbrigade = \"liddell\"\nhex",
            "unit = \"u-52oh\"",
            "give one of the fields",
        ),
        ("pv-16-0", "\"u-hotchkiss-art\"]", "\"u-hotchkis-art\"]", "\"u-hotchkis-art\"", "unknown unit"),
        (
            "pv-16-2",
            "brigades = [\"p-smith\"]\nentry = [\"4026\"]\n",
            "brigades = [\"p-smith\"]\n",
            "brigades = [\"p-smith\"]",
            "give the field `entry`",
        ),
        (
            "pv-16-0",
            "unit = \"c-7ar\"\nturns",
            "unit = \"c-7arr\"\nturns",
            "title = \"7th Arkansas may maneuver\"",
            "unknown unit",
        ),
        (
            "pv-16-0",
            "chit = \"sheridan\"\nturns",
            "chit = \"sherdan\"\nturns",
            "title = \"Sheridan activates without a roll\"",
            "unknown chit",
        ),
        (
            "pv-16-1",
            "brigades = [\"powell\"]\nturn = 6",
            "brigades = [\"powel\"]\nturn = 6",
            "title = \"Powell released at 4 PM\"",
            "unknown brigade",
        ),
        ("pv-16-1", "clear_hex = \"2012\"", "clear_hex = \"2099\"", "title = \"Starkweather Hill\"", "off the grid"),
        ("pv-16-1", "roll = 6", "roll = 7", "title = \"The Designer's Great-Grandfather\"", "field `roll`"),
        ("pv-16-1", "extra_turns = 3", "extra_turns = 2", "title = \"Night\"", "one time per night turn"),
        ("pv-16-4", "union_need = 3", "union_need = 5", "[victory]", "field `union_need`"),
    ];
    for (i, (id, from, to, needle, expect)) in cases.into_iter().enumerate() {
        let path = dir().join("scenarios").join(format!("{id}.toml"));
        assert!(std::fs::read_to_string(path).expect("read").contains(from), "case {i}: `{from}`");
        refused(&format!("case{i}"), id, needle, |t| t.replacen(from, to, 1), expect);
    }
}

// EX 7.5a: a division whose brigades are all On Hold keeps its chit set aside.
#[test]
fn a_chit_in_the_cup_with_every_brigade_on_hold_is_refused() {
    refused(
        "cup",
        "pv-16-1",
        "activation =",
        |t| {
            t.replacen("\"jackson\", \"gay\"]", "\"jackson\", \"gay\", \"sheridan\"]", 1).replacen(
                "set_aside = [\"mitchell\", \"sheridan\",",
                "set_aside = [\"mitchell\",",
                1,
            )
        },
        "`sheridan` is in the cup but none of its brigades",
    );
}

// The catalog holds the units of the five scenarios (EX 16.0-16.4) and no others.
#[test]
fn every_unit_of_the_catalog_is_in_some_scenario() {
    let c = catalog();
    let all = Scenario::load_all(&DataDir::builtin().join("perryville"), &c).expect("scenarios");
    let used: std::collections::BTreeSet<&str> =
        all.iter().flat_map(|s| s.units(&c)).map(|(u, _)| u.id.as_str()).collect();
    let unused: Vec<&str> = c.units.iter().map(|u| u.id.as_str()).filter(|id| !used.contains(id)).collect();
    assert!(unused.is_empty(), "{unused:?}");
}
