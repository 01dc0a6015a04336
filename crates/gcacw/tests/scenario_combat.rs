//! Scenario special rules read by combat and retreats: Artillery overrides (HSN Sc 3 and 4 (b)
//! Artillery Penalty, Sc 7 Confederate Artillery), unfordable rivers (Sc 7 Turn 3), Union forts
//! (HSN-B 7.4, HSN-A 8.0; Sc 5), the Sc 8 Map Edge retreat and the Death of Cleburne (HSN-A 6.0;
//! Sc 4).

mod common;
use caisson_gcacw::charts::AttackType;
use caisson_gcacw::combat::{
    artillery_override, artillery_value, assess, attack_restriction, cleburne_dies, death_of_cleburne, fort_destroyed,
    fort_flag, forts_in_play, legal_targets, outcome, undestroyed_fort, unfordable, Attack, Forts,
};
use caisson_gcacw::registry::{hsn, notices};
use caisson_gcacw::retreat::{self, steps, Retreat, RetreatKind};
use caisson_gcacw::state::{LossCause, State};
use caisson_gcacw::{invariants, victory, Gcacw, Settings, Side};
use caisson_hexmap::{Hex, Hexside};
use common::{empty, place};

fn h(id: u16) -> Hex {
    Hex::new(i16::try_from(id / 100).expect("column"), i16::try_from(id % 100).expect("row"))
}

fn units_of(rules: &Gcacw, state: &State, side: Side) -> Vec<usize> {
    (0..state.units.len()).filter(|&u| rules.unit_side(state, u) == side).collect()
}

/// A retreat of `u` from `from` away from `enemy`, with the other neighbours of `from` (but `to`)
/// held by the enemy, so `to` is offered exactly when it is a legal retreat hex.
fn hemmed_retreat(rules: &Gcacw, state: &mut State, u: usize, from: Hex, to: Hex, enemy: Hex) -> Retreat {
    let side = rules.unit_side(state, u);
    let mut foes = units_of(rules, state, side.enemy()).into_iter();
    for (_, n) in rules.map().neighbors(from) {
        if n != to {
            let f = foes.next().expect("enough enemy units");
            state.units[f].hex = Some(n);
            state.units[f].manpower = 2;
        }
    }
    state.units[u].hex = Some(from);
    Retreat {
        side,
        units: vec![u],
        start: from,
        enemy,
        kind: RetreatKind::Retreat,
        path: Vec::new(),
        override_used: false,
    }
}

/// HSN Sc 3 (b): Confederate infantry divisions but Clayton and Stevenson have Artillery 0; the
/// Union and the two exceptions keep their printed values; demoralized units still have 0.
#[test]
fn sc3_artillery_penalty() {
    let (r, mut s) = empty("hsn-3", 1);
    let brown = place(&r, &mut s, "brown", h(2015), 8);
    let cleburne = place(&r, &mut s, "cleburne", h(2016), 7);
    let clayton = place(&r, &mut s, "clayton", h(2017), 5);
    let stevenson = place(&r, &mut s, "stevenson-a", h(2018), 7);
    let wagner = place(&r, &mut s, "wagner", h(2115), 6);
    assert_eq!(artillery_value(&r, &s, brown), 0);
    assert_eq!(artillery_value(&r, &s, cleburne), 0);
    assert_eq!(
        artillery_override(&r, &s, brown).map(|(v, src)| (v, src.to_string())),
        Some((0, "HSN Sc 3 special rules".into()))
    );
    assert_eq!(artillery_value(&r, &s, clayton), 2, "Clayton keeps its printed value");
    assert_eq!(artillery_value(&r, &s, stevenson), 2, "Stevenson keeps its printed value");
    assert!(artillery_override(&r, &s, stevenson).is_none());
    assert_eq!(artillery_value(&r, &s, wagner), 2, "Union units are not affected");
    // The assessment reads it, and says why.
    let a = assess(&r, &s, &Attack::march(&r, &s, brown, h(2115), AttackType::Normal));
    assert_eq!(a.attacker_artillery, 0);
    assert!(a.notes.iter().any(|n| n.contains("Brown has Artillery 0")), "{:?}", a.notes);
    s.units[clayton].demoralized = 1;
    assert_eq!(artillery_value(&r, &s, clayton), 0, "demoralized: 0 (GCACW 11.0)");
}

/// HSN Sc 4 (b): the same penalty on Turn 1 only.
#[test]
fn sc4_artillery_penalty_turn_1_only() {
    let (r, mut s) = empty("hsn-4", 1);
    let brown = place(&r, &mut s, "brown", h(2015), 8);
    let clayton = place(&r, &mut s, "clayton", h(2017), 5);
    assert_eq!(artillery_value(&r, &s, brown), 0);
    assert_eq!(artillery_value(&r, &s, clayton), 2);
    s.turn = 2;
    assert_eq!(artillery_value(&r, &s, brown), 2, "printed value from Turn 2");
    assert!(artillery_override(&r, &s, brown).is_none());
}

/// HSN Sc 7 Confederate Artillery: every Confederate infantry division has Artillery 1
/// (Stevenson-B prints 1 already); cavalry and the Union are not affected.
#[test]
fn sc7_confederate_artillery_1() {
    let (r, mut s) = empty("hsn-7", 2);
    let loring = place(&r, &mut s, "loring", h(4010), 5);
    let clayton = place(&r, &mut s, "clayton", h(4410), 5);
    let stevenson = place(&r, &mut s, "stevenson-b", h(4311), 6);
    let bell = place(&r, &mut s, "bell", h(4111), 2);
    let kimball = place(&r, &mut s, "kimball", h(5110), 7);
    assert_eq!(artillery_value(&r, &s, loring), 1);
    assert_eq!(artillery_value(&r, &s, clayton), 1, "no exception in Sc 7");
    assert_eq!(artillery_value(&r, &s, stevenson), 1);
    assert_eq!(u16::from(r.unit_counter(&s, bell).artillery.unwrap_or(0)), artillery_value(&r, &s, bell));
    assert_eq!(u16::from(r.unit_counter(&s, kimball).artillery.unwrap_or(0)), artillery_value(&r, &s, kimball));
}

/// Every river hexside of the map crossed only by a ford, as (a, b).
fn fords(r: &Gcacw) -> Vec<(Hex, Hex)> {
    let map = r.map();
    let mut out = Vec::new();
    for a in map.hexes() {
        for (_, b) in map.neighbors(a) {
            let hs = map.hexside(a, b);
            if a < b
                && hs.intersects(Hexside::RIVER)
                && hs.contains(Hexside::FORD)
                && !hs.intersects(Hexside::BRIDGE | Hexside::DAM | Hexside::FERRY | Hexside::ALL_WATER)
            {
                out.push((a, b));
            }
        }
    }
    out
}

/// HSN Sc 7 Turn 3 (GCACW 12.0): no attack across a ford on Turn 3; a ford is water for the flank
/// rules; no retreat across it.
#[test]
fn sc7_turn_3_rivers_unfordable() {
    let (r, mut s) = empty("hsn-7", 2);
    assert!(!unfordable(&r, &s));
    s.turn = 3;
    assert!(unfordable(&r, &s));
    let (r4, s4) = empty("hsn-4", 3);
    assert!(!unfordable(&r4, &s4), "no such rule in Sc 4");

    // Attacks: a ford open on Turn 2 is closed on Turn 3.
    let open: Vec<(Hex, Hex)> = {
        s.turn = 2;
        fords(&r)
            .into_iter()
            .filter(|&(a, b)| attack_restriction(&r, &s, Side::Confederate, a, b, true).is_none())
            .collect()
    };
    assert!(!open.is_empty(), "the HSN map has fords");
    s.turn = 3;
    for &(a, b) in &open {
        let why = attack_restriction(&r, &s, Side::Confederate, a, b, true).expect("closed on Turn 3");
        assert!(why.contains("unfordable"), "{why}");
    }

    // Retreats: the ford is a legal way out on Turn 2 and not on Turn 3.
    let mut checked = 0;
    for &(a, b) in &open {
        let Some(enemy) = r.map().neighbors(a).map(|(_, n)| n).find(|n| n.distance(b) == 2) else { continue };
        let (r, mut s) = empty("hsn-7", 2);
        let loring = place(&r, &mut s, "loring", a, 5);
        let ret = hemmed_retreat(&r, &mut s, loring, a, b, enemy);
        if !steps(&r, &s, &ret).iter().any(|st| st.hex == b) {
            continue; // some other restriction (terrain) closes it anyway
        }
        s.turn = 3;
        assert!(!steps(&r, &s, &ret).iter().any(|st| st.hex == b), "no retreat across the ford {a}-{b} on Turn 3");
        checked += 1;
    }
    assert!(checked > 0, "some ford was checked for retreats");

    // Flank: the hex across the ford is covered (d) on Turn 3.
    let (d, n) = open[0];
    let (r, mut s) = empty("hsn-7", 2);
    place(&r, &mut s, "kimball", d, 7);
    let attacker_hex = r.map().neighbors(d).map(|(_, x)| x).find(|&x| x != n).expect("a neighbour");
    let loring = place(&r, &mut s, "loring", attacker_hex, 5);
    let covered = |s: &State| {
        let a = assess(&r, s, &Attack::march(&r, s, loring, d, AttackType::Normal));
        a.flank.hexes.iter().find(|fh| fh.hex == n).and_then(|fh| fh.covered.clone()).unwrap_or_default()
    };
    assert!(!covered(&s).contains("unfordable"));
    s.turn = 3;
    assert!(covered(&s).contains("ford over an unfordable river (scenario rule)"), "{}", covered(&s));
}

/// HSN-B 7.4, HSN-A 8.0: the Sc 5 forts are in play with no caller passing them; a destroyed fort
/// (flag `fort-destroyed/XXYY`) is a redoubt from then on; no Confederate retreat into an
/// undestroyed fort; an r or R against a fort destroys it.
#[test]
fn sc5_forts_in_play() {
    let (r, mut s) = empty("hsn-5", 2);
    let forts = forts_in_play(&r, &s);
    for x in [5131, 5231, 5607, 5507, 5708, 5807] {
        assert!(forts.undestroyed.contains(&h(x)), "fort {x}");
    }
    assert!(forts.destroyed.is_empty());
    let (r4, s4) = empty("hsn-4", 2);
    assert_eq!(forts_in_play(&r4, &s4), Forts::default(), "no forts in Sc 4");
    assert!(!undestroyed_fort(&r4, &s4, h(5231)));

    let bate = place(&r, &mut s, "bate-b", h(5232), 4);
    assert_eq!(
        legal_targets(&r, &s, bate, h(5232), true, &Forts::default()),
        vec![h(5231)],
        "the empty fort is a target"
    );
    let attack = Attack::march(&r, &s, bate, h(5231), AttackType::Normal);
    assert_eq!(attack.forts, forts, "Attack::march fills the forts in play");
    let a = assess(&r, &s, &attack);
    assert_eq!(a.defender_cv_entrenched.to_string(), "2", "class A fort: Combat 2");
    for ad in 1..=6 {
        for dd in 1..=6 {
            let o = outcome(&a, ad, dd, Some(2)).expect("outcome");
            let beaten = o.cells.defender.retreat || o.cells.defender.rout;
            assert_eq!(fort_destroyed(&a, &attack, &o), beaten.then_some(h(5231)), "dice {ad} {dd}");
        }
    }

    // No Confederate retreat into the undestroyed fort.
    let ret = hemmed_retreat(&r, &mut s, bate, h(5232), h(5231), h(5233));
    assert!(!steps(&r, &s, &ret).iter().any(|st| st.hex == h(5231)), "HSN-A 8.0");

    // Destroyed: no longer a target, a redoubt, and open to a retreat.
    s.flags.insert(fort_flag(h(5231)), 1);
    assert_eq!(fort_flag(h(5231)), "fort-destroyed/5231");
    let forts = forts_in_play(&r, &s);
    assert!(forts.destroyed.contains(&h(5231)) && !forts.undestroyed.contains(&h(5231)));
    assert!(!undestroyed_fort(&r, &s, h(5231)));
    assert!(steps(&r, &s, &ret).iter().any(|st| st.hex == h(5231)), "a destroyed fort may be entered");
    let mut s2 = s.clone();
    for u in units_of(&r, &s2, Side::Union) {
        s2.units[u].hex = None;
    }
    assert!(legal_targets(&r, &s2, bate, h(5232), true, &Forts::default()).is_empty());
}

/// HSN Sc 8 Map Edge: a Confederate stack retreating from a map-edge hex may leave the map, with
/// no Manpower loss, and is removed with the leaders carried.
#[test]
fn sc8_map_edge_retreat() {
    let (r, mut s) = empty("hsn-8", 1);
    let edge = r
        .map()
        .hexes()
        .find(|&x| x.col == 1 && x.row > 5 && x.neighbors().any(|(_, n)| !r.map().contains(n)))
        .expect("a south-edge hex");
    let inland = Hex::new(edge.col + 1, edge.row);
    assert!(r.map().contains(inland));
    let walthall = place(&r, &mut s, "walthall", edge, 4);
    let bell = place(&r, &mut s, "bell", edge, 2);
    let forrest = r.leader_by_id("forrest").expect("forrest");
    s.leaders[forrest].with = Some(bell);
    place(&r, &mut s, "kimball", inland, 7);
    let mut ret = Retreat {
        side: Side::Confederate,
        units: vec![walthall, bell],
        start: edge,
        enemy: inland,
        kind: RetreatKind::Rout,
        path: Vec::new(),
        override_used: false,
    };
    assert!(retreat::off_map_allowed(&r, &s, &ret));
    let choice = retreat::off_map_choice(&r, &s, &ret).expect("offered");
    assert_eq!(choice.id, retreat::OFF_MAP);
    ret.kind = RetreatKind::Cavalry;
    assert!(!retreat::off_map_allowed(&r, &s, &ret), "ruling: not a cavalry retreat");
    ret.kind = RetreatKind::Retreat;
    let (r7, s7) = empty("hsn-7", 1);
    assert!(!retreat::off_map_allowed(&r7, &s7, &ret), "no such rule in Sc 7");
    let mut union_ret = ret.clone();
    union_ret.side = Side::Union;
    assert!(!retreat::off_map_allowed(&r, &s, &union_ret), "Confederates only");
    let mut inner = ret.clone();
    inner.start = Hex::new(10, 20);
    inner.enemy = Hex::new(11, 20);
    assert!(!retreat::off_map_allowed(&r, &s, &inner), "not from an inland hex");

    let manpower = s.units[walthall].manpower;
    assert_eq!(retreat::leave_map(&r, &mut s, &ret), retreat::Progress::Over);
    assert!(s.losses.iter().all(|l| !victory::scoring_cause(l.cause)), "no Manpower lost off the map: {:?}", s.losses);
    let off = s.losses.iter().find(|l| l.unit == walthall).expect("its Manpower left the count");
    assert_eq!((off.amount, off.cause), (manpower, LossCause::RemovedFromPlay));
    assert!(s.units[walthall].hex.is_none() && s.units[walthall].eliminated);
    invariants::check(&r, &s).expect("a unit out of the game has no Manpower left");
    assert!(s.units[bell].hex.is_none());
    assert_eq!(s.leaders[forrest].with, None, "Forrest leaves with Bell");
}

/// HSN-A 6.0 (Sc 4): equal unmodified dice in an attack by Cleburne's division kill him; his
/// division becomes Smith-A. Not in a scenario without the rule, not for other divisions.
#[test]
fn sc4_death_of_cleburne() {
    let (r, mut s) = empty("hsn-4", 2);
    let cleburne = place(&r, &mut s, "cleburne", h(4611), 7);
    let brown = place(&r, &mut s, "brown", h(4612), 8);
    place(&r, &mut s, "wagner", h(4610), 6);
    let a = assess(&r, &s, &Attack::march(&r, &s, cleburne, h(4610), AttackType::Normal));
    let equal = outcome(&a, 3, 3, Some(2)).expect("outcome");
    let unequal = outcome(&a, 3, 4, Some(2)).expect("outcome");
    assert!(equal.equal_dice && !unequal.equal_dice);
    assert!(cleburne_dies(&r, &s, &[cleburne], &equal));
    assert!(cleburne_dies(&r, &s, &[brown, cleburne], &equal), "in an assault too");
    assert!(!cleburne_dies(&r, &s, &[cleburne], &unequal));
    assert!(!cleburne_dies(&r, &s, &[brown], &equal), "only Cleburne's division");
    let smith = r.catalog().index("smith-a").expect("smith-a counter");
    assert_eq!(death_of_cleburne(&r, &s, &[cleburne], &equal), Some((cleburne, smith)));
    assert_eq!(r.catalog().get(smith).tactical, Some(3));

    let (r3, mut s3) = empty("hsn-3", 2);
    let c3 = place(&r3, &mut s3, "cleburne", h(4611), 7);
    assert!(!cleburne_dies(&r3, &s3, &[c3], &equal), "no Death of Cleburne rule in Sc 3");
}

/// The notices leave out the enforced kinds.
#[test]
fn notices_of_the_new_kinds() {
    let n3 = notices("hsn-3").expect("notices");
    assert!(!n3.iter().any(|l| l.contains("Artillery Penalty")), "{n3:?}");
    let n4 = notices("hsn-4").expect("notices");
    assert!(!n4.iter().any(|l| l.contains("not yet enforced: Cleburne")), "{n4:?}");
    let n8 = notices("hsn-8").expect("notices");
    assert!(!n8.iter().any(|l| l.contains("Map Edge")), "{n8:?}");
    let n5 = notices("hsn-5").expect("notices");
    assert!(!n5.iter().any(|l| l.contains("not yet enforced: Union forts")), "{n5:?}");
}

/// HSN-A 8.0 (Sc 5): a Confederate leader's command radius never enters a standing Union fort.
#[test]
fn forts_stop_confederate_command_radius_hsn_sc5() {
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-5", Settings::default()).expect("hsn-5");
    let fort = h(5131);
    let l = (0..state.leaders.len())
        .find(|&l| {
            rules.leader_counter(&state, l).side == caisson_gcacw::Side::Confederate && state.leaders[l].with.is_some()
        })
        .expect("a Confederate leader on the map");
    let u = state.leaders[l].with.expect("carried");
    let beside =
        rules.map().neighbors(fort).map(|(_, n)| n).find(|&n| rules.occupant(&state, n).is_none()).expect("a free hex");
    state.units[u].hex = Some(beside);
    let radius = rules.command_radius(&state, l, &rules.board(&state));
    assert!(!radius.contains(&fort), "the fort hex is closed to Confederate command radius");
    assert!(radius.contains(&beside));
}

/// HSN Sc 7 "Turn 3": rivers are unfordable — a ford cannot be crossed that turn, and no ZOC
/// extends across it (GCACW 12.0).
#[test]
fn unfordable_rivers_close_fords_to_movement_and_zoc_hsn_sc7() {
    use caisson_gcacw::movement::{step, MoveContext};
    use caisson_hexmap::Hexside;
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-7", Settings::default()).expect("hsn-7");
    let map = rules.map();
    let (a, b) = map
        .hexes()
        .flat_map(|h| map.neighbors(h).map(move |(_, n)| (h, n)))
        .find(|&(h, n)| {
            let s = map.hexside(h, n);
            s.contains(Hexside::FORD)
                && !s.intersects(Hexside::BRIDGE)
                && rules.occupant(&state, h).is_none()
                && rules.occupant(&state, n).is_none()
                && !rules.prohibited(caisson_gcacw::Side::Union, h)
                && !rules.prohibited(caisson_gcacw::Side::Union, n)
        })
        .expect("a ford on the map, outside the closed strip south of the Harpeth");
    let u = (0..state.units.len())
        .find(|&u| rules.unit_side(&state, u) == caisson_gcacw::Side::Union && state.units[u].hex.is_some())
        .expect("a Union unit");
    state.units[u].hex = Some(a);
    state.rain = false;
    state.turn = 2;
    let open = step(&rules, &MoveContext::new(&rules, &state, u), a, b, true, false, true);
    state.turn = 3;
    let closed = step(&rules, &MoveContext::new(&rules, &state, u), a, b, true, false, true);
    assert!(open.is_some(), "the ford is open on Turn 2");
    assert!(closed.is_none(), "no crossing at a ford on Turn 3");
    let zoc = rules.zoc_of(&state, caisson_gcacw::Side::Union);
    assert_eq!(zoc[map.index(b).expect("on map")], caisson_gcacw::zoc::Zoc::None, "no ZOC across the closed ford");
}

/// HSN-A 5.5 (Sc 6 Biddle): an unmounted cavalry unit rolls two dice as cavalry and marches half
/// of it, rounded up; otherwise it counts as infantry.
#[test]
fn unmounted_biddle_hsn_sc6() {
    use caisson_kernel::{DiceMode, Game, Setup};
    let (rules, state) = Gcacw::new(hsn().expect("data"), "hsn-6", Settings::default()).expect("hsn-6");
    let biddle = rules.unit_by_id("biddle").expect("biddle");
    assert_eq!(rules.unit_type(&state, biddle), caisson_gcacw::catalog::CounterType::Infantry);
    let mut g = Game::new(
        rules,
        state,
        Setup { system: "gcacw".into(), scenario: "hsn-6".into(), seed: 1, dice: DiceMode::Manual, options: vec![] },
    );
    g.choose("march:biddle").expect("Biddle may march");
    g.choose("die:3").expect("die");
    g.choose("die:4").expect("die");
    let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("logged");
    assert!(roll.result.starts_with("Movement Allowance 4"), "7 halved, rounded up: {}", roll.result);
}

/// A scenario's extra activator takes the other division's unit into an Assault only where the
/// rule says so: Croxton with R. Johnson in HSN Sc 4 ("Activate Leader or Assault action"), not
/// with Hatch in Sc 1 (Activate Leader only).
#[test]
fn an_extra_activator_assaults_with_the_unit_only_where_the_rule_says_so() {
    for (scenario, leader, joins) in [("hsn-4", "r-johnson", true), ("hsn-1", "hatch", false)] {
        let (rules, mut state) = empty(scenario, 2);
        let croxton = place(&rules, &mut state, "croxton-a", h(3010), 2);
        let l = rules.leader_by_id(leader).expect(leader);
        state.leaders[l].with = Some(croxton);
        let candidates = caisson_gcacw::assault::candidates(&rules, &state, l, &[]);
        assert_eq!(candidates.contains(&croxton), joins, "{scenario}: {leader} with Croxton");
        assert!(caisson_gcacw::activation::candidates(&rules, &state, l, &rules.board(&state)).contains(&croxton));
    }
}

/// HSN Sc 6 Union Movement Restrictions: Union units may not move into column 44, but may retreat
/// there, and are then removed from the game with no VP penalty (no Manpower loss); a Union stack
/// with no other way out does not surrender.
#[test]
fn sc6_union_retreat_into_column_44_removes_without_loss() {
    let (r, mut s) = empty("hsn-6", 1);
    let u = place(&r, &mut s, "kimball", h(4510), 6);
    assert!(r.prohibited(Side::Union, h(4410)));
    let mut ret = hemmed_retreat(&r, &mut s, u, h(4510), h(4410), h(4610));
    let offered: Vec<Hex> = steps(&r, &s, &ret).into_iter().map(|st| st.hex).collect();
    assert_eq!(offered, vec![h(4410)]);
    assert_eq!(retreat::take_step(&r, &mut s, &mut ret, h(4410)), Some(retreat::Progress::Over));
    assert_eq!(s.units[u].hex, None, "removed from the game");
    assert!(
        s.losses.iter().all(|l| l.cause == LossCause::RemovedFromPlay),
        "no Manpower loss, so no VP: {:?}",
        s.losses
    );
    assert!(victory::destroyed(&r, &s, u), "out of the game");
    // Its 6 Manpower leave the count without scoring, as the invariants want of a unit out of the game.
    assert_eq!(s.units[u].manpower, 0);
    assert_eq!(s.losses.iter().map(|l| l.amount).sum::<u8>(), 6);
}

/// HSN Sc 3 Hammond's Cavalry Brigade: Hammond must keep to Davidson, Williamson and Rutherford
/// Counties; forced by a retreat out of them, he is eliminated (a retreat loss).
#[test]
fn sc3_hammond_retreating_out_of_his_counties_is_eliminated() {
    let (r, s0) = empty("hsn-3", 2);
    let map = r.map();
    let inside = ["Davidson", "Williamson", "Rutherford"];
    let mut tried = 0;
    for from in map.hexes().filter(|&x| map.county(x) == Some("Williamson")) {
        for (_, to) in map.neighbors(from) {
            if map.county(to).is_none_or(|c| inside.contains(&c)) {
                continue;
            }
            let Some(enemy) = map.neighbors(from).map(|(_, n)| n).find(|n| n.distance(to) == 2) else { continue };
            let mut s = s0.clone();
            let hammond = place(&r, &mut s, "hammond", from, 3);
            let mut ret = hemmed_retreat(&r, &mut s, hammond, from, to, enemy);
            if steps(&r, &s, &ret).iter().map(|st| st.hex).collect::<Vec<_>>() != vec![to] {
                continue;
            }
            tried += 1;
            retreat::take_step(&r, &mut s, &mut ret, to).expect("a legal step");
            assert_eq!(s.units[hammond].hex, None, "eliminated in {to} ({:?})", map.county(to));
            assert_eq!(s.losses.iter().map(|l| l.amount).sum::<u8>(), 3, "all 3 Manpower, lost in the retreat");
            break;
        }
        if tried > 0 {
            break;
        }
    }
    assert_eq!(tried, 1, "a Williamson hex with a retreat out of the three counties");
}
