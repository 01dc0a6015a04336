//! Union Cavalry Mounts (HSN-A 5.0–5.5) and the Death of Cleburne (HSN-A 6.0) in the Advanced
//! Game (HSN Sc 9), driven through the sequence of play with the dice given.

mod common;
use caisson_gcacw::activation::extra_activator;
use caisson_gcacw::catalog::CounterType;
use caisson_gcacw::mounts::merge_markers;
use caisson_gcacw::registry::{hsn, notices};
use caisson_gcacw::sequence::{choose, enter, pending, roll, Phase};
use caisson_gcacw::state::{March, Mount, Stage, State};
use caisson_gcacw::{invariants, Gcacw, Settings, Side};
use caisson_hexmap::Hex;
use caisson_kernel::{DiceMode, Game, Pending, Setup};
use common::{empty, option_ids, place};

fn h(s: &str) -> Hex {
    s.parse().expect("hex")
}

fn pick(rules: &Gcacw, state: &mut State, id: &str) {
    if let Err(e) = choose(rules, state, id) {
        panic!("{id}: {e:?}; options {:?}", option_ids(rules, state));
    }
}

fn roll_modifiers(rules: &Gcacw, state: &State) -> (String, Vec<(String, i32)>) {
    match pending(rules, state) {
        Pending::Roll(r) => (r.purpose, r.modifiers.into_iter().map(|m| (m.label, m.value)).collect()),
        other => panic!("expected a roll, got {other:?}"),
    }
}

/// Puts a unit on the map with its own Manpower (so the Manpower invariant holds).
fn put(rules: &Gcacw, state: &mut State, id: &str, hex: &str) -> usize {
    let u = rules.unit_by_id(id).unwrap_or_else(|| panic!("unit {id}"));
    let mp = state.units[u].manpower;
    place(rules, state, id, h(hex), mp)
}

fn in_phase(state: &State) -> bool {
    matches!(state.stage, Stage::UnionCavalry { .. })
}

fn leader(rules: &Gcacw, id: &str) -> usize {
    rules.leader_by_id(id).unwrap_or_else(|| panic!("leader {id}"))
}

/// HSN-A 5.1 A and the Sc 9 note: on Turn 10 every Union cavalry unit on the map gets a Horses
/// Worn Out marker — not leaders, not cavalry that arrived on Turn 11 or later, not a remounted
/// unit, not Confederate cavalry or infantry. Nothing happens before Turn 10.
#[test]
fn horses_worn_out_on_turn_10_hsn_a_5_1_a() {
    let setup = |turn: u16| {
        let (rules, mut state) = empty("hsn-9", turn);
        for (id, hex) in [("coon", "4515"), ("lowe", "4517"), ("stewart-cav", "4519"), ("capron-a", "4521")] {
            place(&rules, &mut state, id, h(hex), 2);
        }
        place(&rules, &mut state, "armstrong", h("2010"), 2);
        place(&rules, &mut state, "wagner", h("4523"), 6);
        let late = rules.unit_by_id("stewart-cav").expect("stewart-cav");
        state.campaign.reinforced_on.insert(late, 11);
        let remounted = rules.unit_by_id("capron-a").expect("capron-a");
        state.units[remounted].mount = Mount::Remounted;
        let hatch = leader(&rules, "hatch");
        state.leaders[hatch].with = rules.unit_by_id("coon");
        state.stage = Stage::Over;
        (rules, state)
    };
    let (rules, mut state) = setup(9);
    enter(&rules, &mut state, Phase::UnionCavalry);
    assert!(!in_phase(&state), "no Union Cavalry Phase before Turn 10");
    assert!(state.units.iter().all(|u| u.mount != Mount::WornOut), "no marker on Turn 9");

    let (rules, mut state) = setup(10);
    let id = |s: &str| rules.unit_by_id(s).expect(s);
    enter(&rules, &mut state, Phase::UnionCavalry);
    assert_eq!(state.units[id("coon")].mount, Mount::WornOut);
    assert_eq!(state.units[id("lowe")].mount, Mount::WornOut);
    assert_eq!(state.units[id("stewart-cav")].mount, Mount::Mounted, "arrived on Turn 11: exempt (Sc 9 note)");
    assert_eq!(state.units[id("capron-a")].mount, Mount::Remounted, "remounted: never again (HSN-A 5.2)");
    assert_eq!(state.units[id("armstrong")].mount, Mount::Mounted);
    assert_eq!(state.units[id("wagner")].mount, Mount::Mounted);
    assert!(state.log.iter().any(|e| e.rule.as_deref() == Some("HSN-A 5.1 A")));
    // Straight on to the Unmounted Segment (no unit off the map, none in 5805/5806).
    let (purpose, _) = roll_modifiers(&rules, &state);
    assert!(purpose.contains("Unmounting Table"), "{purpose}");
}

/// HSN-A 5.3: one die per on-map unit with a Horses Worn Out marker, +1 exhausted, +1
/// disorganized, +1 demoralized (itemised); 6 or more flips it to Unmounted, less leaves it Worn
/// Out, and it rolls again in later turns.
#[test]
fn unmounting_table_and_its_modifiers_hsn_a_5_3() {
    let (rules, mut state) = empty("hsn-9", 11);
    let tired = place(&rules, &mut state, "coon", h("4515"), 2);
    let fresh = place(&rules, &mut state, "lowe", h("4517"), 2);
    for u in [tired, fresh] {
        state.units[u].mount = Mount::WornOut;
    }
    state.units[tired].exhausted = true;
    state.units[tired].organized = false;
    state.units[tired].demoralized = 1;
    state.units[fresh].exhausted = false;
    enter(&rules, &mut state, Phase::UnionCavalry);
    for _ in 0..2 {
        let (purpose, mods) = roll_modifiers(&rules, &state);
        if purpose.contains("Coon") {
            assert_eq!(
                mods,
                vec![("exhausted".to_string(), 1), ("disorganized".to_string(), 1), ("demoralized".to_string(), 1)]
            );
            roll(&rules, &mut state, &[3]).expect("roll");
            assert_eq!(state.units[tired].mount, Mount::Unmounted, "3 + 3 = 6: Unmounted");
        } else {
            assert!(purpose.contains("Lowe") && mods.is_empty(), "{purpose} {mods:?}");
            roll(&rules, &mut state, &[5]).expect("roll");
            assert_eq!(state.units[fresh].mount, Mount::WornOut, "5: no effect");
        }
    }
    assert_eq!(state.units[tired].mount, Mount::Unmounted);
    assert_eq!(state.units[fresh].mount, Mount::WornOut);
    assert!(!in_phase(&state), "nothing off the map: the phase is over");
    // Next turn, the Worn Out unit rolls again; the Unmounted one no longer does.
    state.turn = 12;
    enter(&rules, &mut state, Phase::UnionCavalry);
    let (purpose, _) = roll_modifiers(&rules, &state);
    assert!(purpose.contains("Lowe"), "{purpose}");
    roll(&rules, &mut state, &[6]).expect("roll");
    assert_eq!(state.units[fresh].mount, Mount::Unmounted);
}

/// HSN-A 5.1 C, E and 5.2: Croxton-A (Worn Out) in 5805 with Hatch leaves the map; its marker
/// turns to Unmounted and Hatch, with no other unit to ride in the hex, goes along; off the map it
/// keeps its status and recovers; a remount roll of 5 does nothing, a later 6 removes the marker
/// for good and brings the B counter; it comes back to 5806 with Hatch, and the Sc 9 Croxton rule
/// applies to the B version.
#[test]
fn off_map_remount_and_return_hsn_a_5_1_5_2() {
    let (rules, mut state) = empty("hsn-9", 11);
    let croxton = put(&rules, &mut state, "croxton-a", "5805");
    state.units[croxton].mount = Mount::WornOut;
    state.units[croxton].fatigue = 3;
    state.units[croxton].organized = false;
    let hatch = leader(&rules, "hatch");
    state.leaders[hatch].with = Some(croxton);
    enter(&rules, &mut state, Phase::UnionCavalry);
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"off:croxton-a".to_string()), "{ids:?}");
    pick(&rules, &mut state, "off:croxton-a");
    assert_eq!(state.units[croxton].hex, None);
    assert!(!state.units[croxton].eliminated);
    assert!(state.campaign.off_map.contains(&croxton));
    assert_eq!(state.units[croxton].mount, Mount::Unmounted, "5.1 C: the marker turns to Unmounted");
    assert_eq!(state.leaders[hatch].with, Some(croxton), "Hatch goes with him: nobody else to stay with");
    invariants::check(&rules, &state).expect("a leader may be off the map with his unit");
    assert!(!caisson_gcacw::victory::destroyed(&rules, &state, croxton), "off the map is not eliminated");
    // Nobody else may leave and no Worn Out unit is on the map: the Return Segment at once.
    // Croxton stays off the map this time.
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"return:croxton-a:5806".to_string()), "{ids:?}");
    pick(&rules, &mut state, "done");
    assert!(!in_phase(&state));

    // The Recovery Phase treats the off-map unit as if on the map (HSN-A 5.1 C; GCACW 8.0).
    state.turn = 11;
    state.stage = Stage::Over;
    enter(&rules, &mut state, Phase::Recovery);
    assert_eq!(state.units[croxton].fatigue, 0, "fatigue 3 - 3");
    assert!(state.units[croxton].exhausted, "fatigue 3: exhausted side");

    // Turn 12: the Remount Segment.
    state.turn = 12;
    state.stage = Stage::Over;
    enter(&rules, &mut state, Phase::UnionCavalry);
    let (purpose, mods) = roll_modifiers(&rules, &state);
    assert!(purpose.contains("Remount Table") && mods.is_empty(), "{purpose}");
    roll(&rules, &mut state, &[5]).expect("roll");
    assert_eq!(state.units[croxton].mount, Mount::Unmounted, "5: no effect");
    assert_eq!(rules.unit_id(&state, croxton), "croxton-a");
    pick(&rules, &mut state, "done");
    state.turn = 13;
    state.stage = Stage::Over;
    enter(&rules, &mut state, Phase::UnionCavalry);
    roll(&rules, &mut state, &[6]).expect("roll");
    assert_eq!(state.units[croxton].mount, Mount::Remounted, "6: Remounted");
    assert_eq!(rules.unit_id(&state, croxton), "croxton-b", "the B version replaces Croxton-A");
    assert_eq!(rules.unit_counter(&state, croxton).artillery, Some(1));
    assert!(state.units[croxton].exhausted && !state.units[croxton].organized, "it keeps its status");
    assert_eq!(rules.unit_by_id("croxton-b"), Some(croxton));
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"return:croxton-b:5806".to_string()), "{ids:?}");
    pick(&rules, &mut state, "return:croxton-b:5806");
    assert_eq!(state.units[croxton].hex, Some(h("5806")));
    assert!(state.campaign.off_map.is_empty());
    assert_eq!(rules.leader_hex(&state, hatch), Some(h("5806")), "Hatch comes back with him");
    assert_eq!(rules.unit_type(&state, croxton), CounterType::Cavalry, "mounted again");
    // Sc 9 Croxton: any Union cavalry division or corps leader may activate the B version too.
    let (hatch_c, croxton_b) = (state.leaders[hatch].counter as usize, state.units[croxton].counter as usize);
    assert!(extra_activator(&rules, hatch_c, croxton_b));
    invariants::check(&rules, &state).expect("invariants");
}

/// HSN-A 5.1 C: a leader may stay while a unit of his command remains in the exit hex, and may
/// follow the unit off the map by choice; E: he may come back with a unit of his command; a
/// Confederate-held exit hex takes no returning cavalry.
#[test]
fn leaders_and_the_off_map_removal_hsn_a_5_1_c_e() {
    let (rules, mut state) = empty("hsn-9", 11);
    let capron = put(&rules, &mut state, "capron-a", "5805");
    let lowe = put(&rules, &mut state, "lowe", "5805");
    let rj = leader(&rules, "r-johnson");
    state.leaders[rj].with = Some(capron);
    enter(&rules, &mut state, Phase::UnionCavalry);
    pick(&rules, &mut state, "off:capron-a");
    assert_eq!(state.leaders[rj].with, Some(lowe), "Lowe of his division stays: so may he");
    assert_eq!(state.units[capron].mount, Mount::Mounted, "no marker to flip");
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"leader-off:r-johnson:capron-a".to_string()), "{ids:?}");
    pick(&rules, &mut state, "leader-off:r-johnson:capron-a");
    assert_eq!(state.leaders[rj].with, Some(capron));
    pick(&rules, &mut state, "off:lowe");
    // Cavalry Return: Lowe comes back, then R. Johnson with him; Capron stays off the map.
    pick(&rules, &mut state, "return:lowe:5805");
    let ids = option_ids(&rules, &state);
    assert!(ids.contains(&"leader-return:r-johnson:lowe".to_string()), "{ids:?}");
    pick(&rules, &mut state, "leader-return:r-johnson:lowe");
    assert_eq!(rules.leader_hex(&state, rj), Some(h("5805")));
    pick(&rules, &mut state, "done");
    assert!(state.campaign.off_map.contains(&capron));
    invariants::check(&rules, &state).expect("invariants");
    place(&rules, &mut state, "armstrong", h("5806"), 2);
    assert_eq!(caisson_gcacw::mounts::return_hexes(&rules, &state), vec![h("5805")]);
}

/// HSN-A 5.5: an Unmounted unit is infantry, but its March roll is the cavalry roll halved,
/// rounded up; a Horses Worn Out marker alone changes nothing.
#[test]
fn unmounted_marches_half_the_cavalry_roll_hsn_a_5_5() {
    let (rules, mut state) = empty("hsn-9", 11);
    let coon = place(&rules, &mut state, "coon", h("4515"), 2);
    state.units[coon].mount = Mount::WornOut;
    assert_eq!(rules.unit_type(&state, coon), CounterType::Cavalry, "Horses Worn Out alone: no effect");
    assert!(!rules.unmounted(&state, coon));
    state.units[coon].mount = Mount::Unmounted;
    assert_eq!(rules.unit_type(&state, coon), CounterType::Infantry);
    assert!(rules.unmounted(&state, coon));
    state.stage = Stage::MarchAllowance { unit: coon };
    let req = match pending(&rules, &state) {
        Pending::Roll(r) => r,
        other => panic!("{other:?}"),
    };
    assert_eq!(req.dice, 2, "the cavalry roll: two dice");
    let plus: i32 = req.modifiers.iter().map(|m| m.value).sum();
    roll(&rules, &mut state, &[6, 5]).expect("roll");
    let ma = match &state.stage {
        Stage::ForceMarch { march }
        | Stage::Moving { march }
        | Stage::Riders { march }
        | Stage::ExtendedMarch { march } => march.ma,
        other => panic!("{other:?}"),
    };
    let full = u8::try_from(11 + plus).expect("small");
    assert_eq!(ma, full.div_ceil(2), "half of {full}, rounded up");
}

/// HSN-A 5.5 and GCACW 7.7: an Unmounted Union unit may not cavalry retreat, but, marching as
/// infantry, it makes Confederate cavalry choose whether to retreat.
#[test]
fn unmounted_and_the_cavalry_retreat_hsn_a_5_5() {
    let (rules, mut state) = empty("hsn-9", 11);
    let coon = place(&rules, &mut state, "coon", h("4515"), 2);
    let armstrong = place(&rules, &mut state, "armstrong", h("4516"), 2);
    let march = |u| March {
        unit: u,
        ma: 6,
        left: caisson_gcacw::charts::Half::whole(4),
        moved: false,
        started_in_zoc: false,
        wagon_paid: false,
        stopped: false,
        declined: Vec::new(),
        blockhouse_tried: false,
        path: Vec::new(),
    };
    // Mounted Coon: a cavalry march does not trigger Armstrong's retreat; unmounted, it does.
    assert!(caisson_gcacw::cavalry::triggered(&rules, &state, &march(coon)).is_empty());
    state.units[coon].mount = Mount::Unmounted;
    assert_eq!(caisson_gcacw::cavalry::triggered(&rules, &state, &march(coon)), vec![h("4516")]);
    // Confederate infantry beside Coon: Worn Out Coon may retreat, Unmounted Coon may not.
    state.units[armstrong].hex = None;
    let johnson = place(&rules, &mut state, "johnson", h("4516"), 6);
    assert!(caisson_gcacw::cavalry::triggered(&rules, &state, &march(johnson)).is_empty());
    state.units[coon].mount = Mount::WornOut;
    assert_eq!(caisson_gcacw::cavalry::triggered(&rules, &state, &march(johnson)), vec![h("4515")]);
}

/// HSN-A 5.4: after two Union cavalry units attach, the survivor is Unmounted if either was;
/// otherwise Worn Out if either was; otherwise it keeps its own status.
#[test]
fn merge_markers_hsn_a_5_4() {
    use Mount::*;
    let (_, mut state) = empty("hsn-9", 11);
    let cases = [
        (Mounted, Unmounted, Unmounted),
        (WornOut, Unmounted, Unmounted),
        (Unmounted, Mounted, Unmounted),
        (Mounted, WornOut, WornOut),
        (WornOut, Mounted, WornOut),
        (Remounted, WornOut, WornOut),
        (Mounted, Remounted, Mounted),
        (Remounted, Mounted, Remounted),
    ];
    for (a, b, want) in cases {
        state.units[0].mount = a;
        state.units[1].mount = b;
        merge_markers(&mut state, 0, 1);
        assert_eq!(state.units[0].mount, want, "{a:?} + {b:?}");
    }
    merge_markers(&mut state, 0, 100_000); // out of range: no panic, no change
    assert_eq!(state.units[0].mount, Remounted);
}

/// HSN-A 5.5 (Sc 6 and 7): Biddle's set-up Unmounted counter is the same per-unit marker.
#[test]
fn biddle_starts_unmounted_sc6_sc7_hsn_a_5_5() {
    for sc in ["hsn-6", "hsn-7"] {
        let (rules, state) = Gcacw::new(hsn().expect("data"), sc, Settings::default()).expect(sc);
        let biddle = rules.unit_by_id("biddle").expect("biddle");
        assert_eq!(state.units[biddle].mount, Mount::Unmounted, "{sc}");
        assert_eq!(rules.unit_type(&state, biddle), CounterType::Infantry, "{sc}");
        assert!(state.units.iter().enumerate().all(|(u, x)| u == biddle || x.mount == Mount::Mounted));
    }
}

/// The Basic scenarios have no Union Cavalry Phase: nothing changes on Turn 10 and later.
#[test]
fn no_cavalry_phase_in_the_basic_game() {
    let (rules, mut state) = empty("hsn-5", 10);
    let u = (0..state.units.len())
        .find(|&u| {
            rules.unit_counter(&state, u).ty == CounterType::Cavalry && rules.unit_side(&state, u) == Side::Union
        })
        .expect("Union cavalry in Sc 5");
    state.units[u].hex = Some(h("5805"));
    state.stage = Stage::Over;
    enter(&rules, &mut state, Phase::UnionCavalry);
    assert!(!in_phase(&state));
    assert_eq!(state.units[u].mount, Mount::Mounted);
}

/// The view says which units carry a marker and which are off the map; the notices no longer list
/// the mounts rule or Cleburne as not enforced.
#[test]
fn view_and_notices_show_the_markers() {
    let (rules, mut state) = empty("hsn-9", 11);
    let coon = place(&rules, &mut state, "coon", h("4515"), 2);
    let lowe = place(&rules, &mut state, "lowe", h("4517"), 2);
    state.units[coon].mount = Mount::Unmounted;
    state.units[lowe].hex = None;
    state.units[lowe].mount = Mount::WornOut;
    state.campaign.off_map.insert(lowe);
    let v = caisson_gcacw::view::view(&rules, &state);
    let unit = |id: &str| v["units"].as_array().expect("units").iter().find(|u| u["id"] == id).expect(id).clone();
    assert_eq!(unit("coon")["mount"], "Unmounted");
    assert_eq!(unit("lowe")["mount"], "Horses Worn Out");
    assert_eq!(unit("lowe")["off_map"], true);
    assert_eq!(unit("coon")["off_map"], false);
    let text = caisson_gcacw::view::summary(&rules, &state);
    assert!(text.contains("off map (remounts)") && text.contains("Unmounted"), "{text}");
    let lines = notices("hsn-9").expect("notices");
    assert!(!lines.iter().any(|l| l.contains("Union cavalry reinforcements and mounts")), "{lines:#?}");
    assert!(!lines.iter().any(|l| l.contains("Cleburne")), "{lines:#?}");
}

/// HSN-A 6.0 in Sc 9: Cleburne's division attacks Wagner and both combat dice are 3: Cleburne
/// dies and Smith-A takes his division's place, the same unit with the same status.
#[test]
fn death_of_cleburne_sc9_hsn_a_6_0() {
    let (rules, mut state) = empty("hsn-9", 1);
    let cleburne = place(&rules, &mut state, "cleburne", h("4611"), 7);
    place(&rules, &mut state, "wagner", h("4610"), 7);
    let cheatham = leader(&rules, "cheatham");
    state.leaders[cheatham].with = Some(cleburne);
    state.automatic = vec![Side::Confederate];
    caisson_gcacw::sequence::begin_action_cycle(&rules, &mut state);
    let mut g = Game::new(
        rules,
        state,
        Setup { system: "gcacw".into(), scenario: "hsn-9".into(), seed: 1, dice: DiceMode::Manual, options: vec![] },
    );
    for id in ["march:cleburne", "die:3", "no-force-march", "attack:4610:hasty", "commit", "die:3", "die:3", "die:3"] {
        if let Err(e) = g.choose(id) {
            let now = g.pending().map(|d| (d.prompt, d.options.into_iter().map(|c| c.id).collect::<Vec<_>>()));
            panic!("{id}: {e}; {now:?}");
        }
    }
    let (rules, state) = (g.rules(), g.state());
    assert_eq!(rules.unit_id(state, cleburne), "smith-a", "Smith-A replaces Cleburne");
    assert_eq!(rules.unit_by_id("smith-a"), Some(cleburne), "in place: the same unit");
    assert!(state.units[cleburne].hex.is_some() && !state.units[cleburne].eliminated);
    assert_eq!(state.leaders[cheatham].with, Some(cleburne), "Cheatham stays with the division");
    assert!(state.log.iter().any(|e| e.rule.as_deref() == Some("HSN-A 6.0")));
}
