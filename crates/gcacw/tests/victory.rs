//! Victory points of the HSN Basic Game scenarios 1–8 (each scenario's "VC: Victory
//! Conditions"): positions and losses are set directly in the state, then scored.

use caisson_gcacw::catalog::CounterType;
use caisson_gcacw::registry::hsn;
use caisson_gcacw::state::{Loss, LossCause, State, StationMark};
use caisson_gcacw::victory::{
    self, level, observe, record_blockhouse_destroyed, score, vp_text, Score, Who, NOT_EVALUATED,
};
use caisson_gcacw::{Gcacw, Settings, Side};
use caisson_hexmap::Hex;

fn h(s: &str) -> Hex {
    s.parse().expect("hex")
}

fn game(n: u16) -> (Gcacw, State) {
    Gcacw::new(hsn().expect("data"), &format!("hsn-{n}"), Settings::default()).expect("scenario")
}

fn unit(rules: &Gcacw, id: &str) -> usize {
    rules.unit_by_id(id).unwrap_or_else(|| panic!("no unit {id}"))
}

fn put(rules: &Gcacw, state: &mut State, id: &str, hex: &str) {
    let u = unit(rules, id);
    state.units[u].hex = Some(h(hex));
}

/// Takes a unit off the map (somewhere harmless for the test).
fn off(rules: &Gcacw, state: &mut State, id: &str) {
    let u = unit(rules, id);
    state.units[u].hex = None;
}

fn item(s: &Score, id: &str) -> f64 {
    s.items.iter().find(|i| i.id == id).unwrap_or_else(|| panic!("no award {id}")).vp
}

fn detail<'a>(s: &'a Score, id: &str) -> &'a str {
    &s.items.iter().find(|i| i.id == id).unwrap_or_else(|| panic!("no award {id}")).detail
}

fn loss(state: &mut State, u: usize, amount: u8, cause: LossCause) {
    state.losses.push(Loss { turn: state.turn, unit: u, amount, cause });
}

// ----- every award is evaluated ----------------------------------------------------------------

/// Every award of every Basic Game scenario (Sc 1–8) is known to the code: none is itemised as
/// "not evaluated", and each scenario's score has one item per award, in file order.
#[test]
fn every_award_of_scenarios_1_to_8_is_evaluated() {
    for n in 1..=8 {
        let (rules, state) = game(n);
        let s = score(&rules, &state);
        let awards = &rules.scenario().victory.award;
        assert_eq!(s.items.len(), awards.len(), "hsn-{n}");
        for (a, i) in awards.iter().zip(&s.items) {
            assert_eq!(a.id, i.id, "hsn-{n}");
            assert_ne!(i.detail, NOT_EVALUATED, "hsn-{n}: award `{}` is not evaluated", a.id);
        }
        assert_eq!(s.side, rules.scenario().victory.side, "hsn-{n}");
        assert_eq!(s.total, s.items.iter().map(|i| i.vp).sum::<f64>(), "hsn-{n}");
        assert!(!s.level.is_empty(), "hsn-{n}: a level");
    }
}

// ----- Sc 1 -----------------------------------------------------------------------------------

/// Digest T10 (HSN Sc 1): 3 undemoralized Confederate cavalry brigades north of the Duck give
/// 3 × ½ = 1½, rounded up to 2 VP; a demoralized brigade there, or brigades south of the Duck,
/// give nothing.
#[test]
fn sc1_three_brigades_north_of_the_duck_give_two_vp() {
    let (rules, mut state) = game(1);
    assert_eq!(item(&score(&rules, &state), "cavalry-north-of-duck"), 0.0, "all start south of the Duck");
    for id in ["rucker", "biffle", "armstrong"] {
        put(&rules, &mut state, id, "2613");
    }
    let s = score(&rules, &state);
    assert_eq!(item(&s, "cavalry-north-of-duck"), 2.0);
    assert!(
        detail(&s, "cavalry-north-of-duck").contains("1½, rounded up to 2"),
        "{}",
        detail(&s, "cavalry-north-of-duck")
    );
    put(&rules, &mut state, "ross", "2613");
    assert_eq!(item(&score(&rules, &state), "cavalry-north-of-duck"), 2.0, "4 × ½ = 2");
    let ross = unit(&rules, "ross");
    state.units[ross].demoralized = 1;
    put(&rules, &mut state, "bell", "2613");
    assert_eq!(item(&score(&rules, &state), "cavalry-north-of-duck"), 2.0, "a demoralized brigade does not count");
    put(&rules, &mut state, "crossland", "1615");
    assert_eq!(item(&score(&rules, &state), "cavalry-north-of-duck"), 2.0, "1615 is south of the Duck");
}

/// HSN Sc 1: +12 for an undemoralized Confederate unit in Columbia (1715), +6 in Ft. Mizner
/// (1714); a demoralized unit scores nothing.
#[test]
fn sc1_columbia_and_fort_mizner_need_an_undemoralized_confederate_unit() {
    let (rules, mut state) = game(1);
    off(&rules, &mut state, "ruger");
    put(&rules, &mut state, "rucker", "1715");
    put(&rules, &mut state, "bell", "1714");
    let s = score(&rules, &state);
    assert_eq!(item(&s, "columbia"), 12.0);
    assert_eq!(item(&s, "fort-mizner"), 6.0);
    let rucker = unit(&rules, "rucker");
    state.units[rucker].demoralized = 1;
    let s = score(&rules, &state);
    assert_eq!(item(&s, "columbia"), 0.0, "demoralized");
    assert_eq!(item(&s, "fort-mizner"), 6.0);
}

/// HSN Sc 1: +3 per Union infantry unit not within 3 hexes of Columbia or destroyed; at the
/// start only Ruger (in Columbia) is near it. Within 3 counts; 4 away and eliminated do not.
#[test]
fn sc1_union_infantry_away_from_columbia_or_destroyed() {
    let (rules, mut state) = game(1);
    let s = score(&rules, &state);
    assert_eq!(item(&s, "union-infantry-away"), 18.0, "{}", detail(&s, "union-infantry-away"));
    // Cox three hexes from Columbia is near it; Ruger destroyed counts.
    let cox = unit(&rules, "cox");
    let near = rules.map().hexes().find(|x| x.distance(h("1715")) == 3).expect("a hex 3 away");
    state.units[cox].hex = Some(near);
    let ruger = unit(&rules, "ruger");
    state.units[ruger].hex = None;
    state.units[ruger].manpower = 0;
    state.units[ruger].eliminated = true;
    assert_eq!(item(&score(&rules, &state), "union-infantry-away"), 18.0, "Cox in, Ruger out");
    let far = rules.map().hexes().find(|x| x.distance(h("1715")) == 4).expect("a hex 4 away");
    state.units[cox].hex = Some(far);
    assert_eq!(item(&score(&rules, &state), "union-infantry-away"), 21.0);
}

/// HSN Sc 1: Manpower lost in combat, retreat or cavalry retreat counts (+2 Union, −3
/// Confederate); lost in extended march, force march or ZOC to ZOC does not.
#[test]
fn sc1_losses_count_by_cause() {
    let (rules, mut state) = game(1);
    let cox = unit(&rules, "cox");
    let rucker = unit(&rules, "rucker");
    loss(&mut state, cox, 2, LossCause::ForceMarch);
    loss(&mut state, cox, 1, LossCause::ExtendedMarch);
    loss(&mut state, cox, 1, LossCause::ZocToZoc);
    let s = score(&rules, &state);
    assert_eq!(item(&s, "union-manpower-lost"), 0.0, "marching losses do not count");
    assert!(detail(&s, "union-manpower-lost").contains("4 not counted"), "{}", detail(&s, "union-manpower-lost"));
    loss(&mut state, cox, 1, LossCause::Combat);
    loss(&mut state, cox, 2, LossCause::Retreat);
    loss(&mut state, rucker, 1, LossCause::CavalryRetreat);
    loss(&mut state, rucker, 1, LossCause::Combat);
    loss(&mut state, rucker, 3, LossCause::ForceMarch);
    let s = score(&rules, &state);
    assert_eq!(item(&s, "union-manpower-lost"), 6.0, "3 points × 2");
    assert_eq!(item(&s, "confederate-manpower-lost"), -6.0, "2 points × −3");
}

// ----- Sc 2 -----------------------------------------------------------------------------------

/// HSN Sc 2: −4 if the Brentwood (4910) station has a Damaged or Destroyed marker.
#[test]
fn sc2_brentwood_station_damaged_or_destroyed_costs_4() {
    let (rules, mut state) = game(2);
    assert_eq!(item(&score(&rules, &state), "brentwood-station"), 0.0);
    state.stations.insert(h("4910"), StationMark::Damaged);
    assert_eq!(item(&score(&rules, &state), "brentwood-station"), -4.0);
    state.stations.insert(h("4910"), StationMark::Destroyed);
    assert_eq!(item(&score(&rules, &state), "brentwood-station"), -4.0);
    state.stations.clear();
    state.stations.insert(h("3213"), StationMark::Destroyed);
    assert_eq!(item(&score(&rules, &state), "brentwood-station"), 0.0, "another station");
}

/// HSN Sc 2: a wagon's Manpower lost for any reason counts (−2), an infantry unit's only in
/// combat, retreat or cavalry retreat.
#[test]
fn sc2_wagon_losses_count_for_any_reason() {
    let (rules, mut state) = game(2);
    let wagon = unit(&rules, "wagon-a");
    let cox = unit(&rules, "cox");
    loss(&mut state, wagon, 1, LossCause::ExtendedMarch);
    loss(&mut state, wagon, 1, LossCause::ZocToZoc);
    loss(&mut state, cox, 2, LossCause::ExtendedMarch);
    assert_eq!(item(&score(&rules, &state), "union-manpower-lost"), -4.0);
    loss(&mut state, cox, 1, LossCause::Combat);
    assert_eq!(item(&score(&rules, &state), "union-manpower-lost"), -6.0);
}

/// HSN Sc 2: −12 once if an undemoralized Confederate unit enters Columbia on Turn 4 or
/// earlier, seen by `observe` when it happens; nothing for an entry on Turn 5.
#[test]
fn sc2_columbia_entered_by_turn_4_costs_12() {
    let (rules, mut state) = game(2);
    off(&rules, &mut state, "ruger");
    state.turn = 2;
    put(&rules, &mut state, "rucker", "1715");
    observe(&rules, &mut state);
    assert_eq!(state.flags.get(victory::SC2_COLUMBIA_ENTERED), Some(&2));
    // It stays recorded after the unit leaves and the game goes on.
    put(&rules, &mut state, "rucker", "1615");
    state.turn = 7;
    observe(&rules, &mut state);
    let s = score(&rules, &state);
    assert_eq!(item(&s, "columbia-early"), -12.0, "{}", detail(&s, "columbia-early"));
    // A second entry does not double it.
    state.turn = 3;
    put(&rules, &mut state, "biffle", "1715");
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "columbia-early"), -12.0);

    let (rules, mut state) = game(2);
    off(&rules, &mut state, "ruger");
    state.turn = 5;
    put(&rules, &mut state, "rucker", "1715");
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "columbia-early"), 0.0, "Turn 5 entries do not count");
}

/// HSN Sc 2: the Columbia penalty is voided for good if on Turn 4 or earlier every surviving
/// Union wagon on the map is within 6 hexes of Franklin (4010), before or after the entry; not
/// if one wagon is 7 hexes away; and an eliminated wagon does not prevent it.
#[test]
fn sc2_wagons_near_franklin_void_the_columbia_penalty() {
    let (rules, mut state) = game(2);
    off(&rules, &mut state, "ruger");
    state.turn = 3;
    put(&rules, &mut state, "rucker", "1715");
    observe(&rules, &mut state);
    let six = rules.map().hexes().find(|x| x.distance(h("4010")) == 6).expect("6 hexes from Franklin");
    let seven = rules.map().hexes().find(|x| x.distance(h("4010")) == 7).expect("7 hexes from Franklin");
    state.turn = 4;
    for w in ["wagon-a", "wagon-b"] {
        let u = unit(&rules, w);
        state.units[u].hex = Some(six);
    }
    let c = unit(&rules, "wagon-c");
    state.units[c].hex = Some(seven);
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "columbia-early"), -12.0, "one wagon 7 hexes away");
    // Wagon C is eliminated: the two survivors are near Franklin.
    state.units[c].hex = None;
    state.units[c].manpower = 0;
    state.units[c].eliminated = true;
    observe(&rules, &mut state);
    assert_eq!(state.flags.get(victory::SC2_WAGONS_NEAR_FRANKLIN), Some(&4));
    // Voided for good, even when the wagons go south again.
    state.turn = 6;
    for w in ["wagon-a", "wagon-b"] {
        let u = unit(&rules, w);
        state.units[u].hex = Some(h("0324"));
    }
    observe(&rules, &mut state);
    let s = score(&rules, &state);
    assert_eq!(item(&s, "columbia-early"), 0.0, "{}", detail(&s, "columbia-early"));
    assert!(detail(&s, "columbia-early").starts_with("voided"));

    // Near Franklin on Turn 5 is too late.
    let (rules, mut state) = game(2);
    off(&rules, &mut state, "ruger");
    state.turn = 2;
    put(&rules, &mut state, "rucker", "1715");
    observe(&rules, &mut state);
    state.turn = 5;
    for w in ["wagon-a", "wagon-b", "wagon-c"] {
        put(&rules, &mut state, w, "4010");
    }
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "columbia-early"), -12.0);
}

/// HSN Sc 2: a rout into Columbia does not count (a routing unit is demoralized by its R
/// result, GCACW 7.5), nor does the same unit recovering there later; leaving and entering again
/// undemoralized does.
#[test]
fn sc2_a_rout_into_columbia_does_not_count() {
    let (rules, mut state) = game(2);
    off(&rules, &mut state, "ruger");
    state.turn = 2;
    let rucker = unit(&rules, "rucker");
    state.units[rucker].demoralized = 1;
    put(&rules, &mut state, "rucker", "1715");
    observe(&rules, &mut state);
    state.units[rucker].demoralized = 0;
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "columbia-early"), 0.0);
    put(&rules, &mut state, "rucker", "1615");
    observe(&rules, &mut state);
    put(&rules, &mut state, "rucker", "1715");
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "columbia-early"), -12.0);
}

/// HSN Sc 2: the score counts the present position even before `observe` has seen it.
#[test]
fn sc2_score_sees_an_entry_not_yet_observed() {
    let (rules, mut state) = game(2);
    off(&rules, &mut state, "ruger");
    put(&rules, &mut state, "rucker", "1715");
    assert_eq!(item(&score(&rules, &state), "columbia-early"), -12.0);
    assert!(state.flags.is_empty(), "score does not change the state");
}

/// HSN Sc 2: +7 per Union division or wagon in Franklin or Nashville, or with an LOC to one of
/// them; five divisions and three wagons take part.
#[test]
fn sc2_divisions_and_wagons_with_an_loc() {
    let (rules, mut state) = game(2);
    let divisions = Who::side(Side::Union).ty(CounterType::Infantry).divisions();
    let n = (0..state.units.len()).filter(|&u| divisions.matches(&rules, &state, u)).count();
    assert_eq!(n, 5, "Whitaker, Wagner, Wood, Ruger, Cox");
    assert_eq!(item(&score(&rules, &state), "franklin-nashville-loc"), 0.0, "all far to the south");
    put(&rules, &mut state, "cox", "4010");
    put(&rules, &mut state, "wagon-a", "5707");
    put(&rules, &mut state, "wood", "3513");
    let s = score(&rules, &state);
    assert_eq!(item(&s, "franklin-nashville-loc"), 21.0, "{}", detail(&s, "franklin-nashville-loc"));
}

// ----- Sc 3 -----------------------------------------------------------------------------------

/// HSN Sc 3: an LOC to Franklin by a path of at most 10 MP (Wagner five pike hexes away), or by
/// the pike (Wood in Spring Hill, eleven pike hexes away and more than 10 MP: the three-hex hop
/// may run along the pike, so 3 + 8); none from farther south (Cox in 2014).
#[test]
fn sc3_loc_by_path_or_by_pike() {
    let (rules, mut state) = game(3);
    put(&rules, &mut state, "wagner", "3513");
    put(&rules, &mut state, "wood", "2914");
    put(&rules, &mut state, "cox", "2014");
    let s = score(&rules, &state);
    let d = detail(&s, "franklin-loc").to_string();
    assert_eq!(item(&s, "franklin-loc"), 14.0, "{d}");
    assert!(d.contains("Wagner (5 MP path)"), "{d}");
    // The shortest pike route: up to 3 hexes of hop (forward along the pike too), then the pike.
    assert!(d.contains("Wood (3 hexes to the pike, then 8 pike hexes)"), "{d}");
    // Two hexes off the pike: the hop plus the pike.
    let off_pike = rules
        .map()
        .hexes()
        .find(|x| x.distance(h("2914")) == 2 && x.distance(h("4010")) >= 12)
        .expect("a hex 2 from Spring Hill");
    let wood = unit(&rules, "wood");
    state.units[wood].hex = Some(off_pike);
    let s = score(&rules, &state);
    assert_eq!(item(&s, "franklin-loc"), 14.0, "{}", detail(&s, "franklin-loc"));
}

/// HSN Sc 3: undemoralized Confederate units with combined Combat of 3 or more in Franklin stop
/// every LOC; cavalry counts half, rounded down, and demoralized units not at all.
#[test]
fn sc3_a_confederate_force_in_franklin_blocks_every_loc() {
    let (rules, mut state) = game(3);
    off(&rules, &mut state, "hammond");
    put(&rules, &mut state, "wagner", "3513");
    put(&rules, &mut state, "cleburne", "4010");
    assert_eq!(item(&score(&rules, &state), "franklin-loc"), 0.0, "Cleburne (7) holds Franklin");
    let cleburne = unit(&rules, "cleburne");
    state.units[cleburne].demoralized = 1;
    assert_eq!(item(&score(&rules, &state), "franklin-loc"), 7.0, "a demoralized division does not block");
    off(&rules, &mut state, "cleburne");
    for id in ["rucker", "biffle", "armstrong", "bell"] {
        put(&rules, &mut state, id, "4010");
    }
    // Cavalry 2 + 1 + 2 + 2 = 7, halved and rounded down = 3: blocks.
    assert_eq!(item(&score(&rules, &state), "franklin-loc"), 0.0, "cavalry 7 → 3");
    off(&rules, &mut state, "bell");
    // 5 → 2: does not block.
    assert_eq!(item(&score(&rules, &state), "franklin-loc"), 7.0, "cavalry 5 → 2");
}

// ----- Sc 4 -----------------------------------------------------------------------------------

/// HSN Sc 4: −40 once if an undemoralized Confederate unit enters Franklin on Turn 1; not on
/// Turn 2.
#[test]
fn sc4_franklin_entered_on_turn_1_costs_40() {
    let (rules, mut state) = game(4);
    put(&rules, &mut state, "cleburne", "4010");
    observe(&rules, &mut state);
    put(&rules, &mut state, "cleburne", "3915");
    state.turn = 2;
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "franklin-turn-1"), -40.0);

    let (rules, mut state) = game(4);
    state.turn = 2;
    put(&rules, &mut state, "cleburne", "4010");
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "franklin-turn-1"), 0.0);
}

/// HSN Sc 4: seven Union divisions and three wagons may score an LOC to Nashville of at most
/// 13 MP; a blocking Confederate force's ZOC closes Nashville unless undemoralized Union
/// infantry or cavalry occupies the hex.
#[test]
fn sc4_nashville_loc_and_the_zoc_exception() {
    let (rules, mut state) = game(4);
    let divisions = Who::side(Side::Union).ty(CounterType::Infantry).divisions();
    let n = (0..state.units.len()).filter(|&u| divisions.matches(&rules, &state, u)).count();
    assert_eq!(n, 7, "the rulebook counts 7 divisions");
    let s = score(&rules, &state);
    assert_eq!(item(&s, "nashville-loc"), 14.0, "McArthur and J. Moore in Nashville: {}", detail(&s, "nashville-loc"));
    // A blocker next to both Nashville hexes, exerting its ZOC into them.
    let map = rules.map();
    let (a, b) = (h("5706"), h("5707"));
    let blocker = map
        .neighbors(a)
        .map(|(_, x)| x)
        .find(|&x| {
            x.distance(b) == 1
                && caisson_gcacw::zoc::exerted(map, x, a, false) == caisson_gcacw::zoc::Zoc::Normal
                && caisson_gcacw::zoc::exerted(map, x, b, false) == caisson_gcacw::zoc::Zoc::Normal
        })
        .expect("a hex next to both Nashville hexes");
    // Cox next to 5706 but out of the blocker's ZOC.
    let cox_at = map
        .neighbors(a)
        .map(|(_, x)| x)
        .find(|&x| x.distance(blocker) >= 2 && x != b && rules.map().terrain(x).is_some())
        .expect("a hex next to 5706 away from the blocker");
    put(&rules, &mut state, "cox", &cox_at.to_string());
    off(&rules, &mut state, "j-moore");
    off(&rules, &mut state, "mcarthur");
    let s = score(&rules, &state);
    assert_eq!(item(&s, "nashville-loc"), 7.0, "{}", detail(&s, "nashville-loc"));
    let cleburne = unit(&rules, "cleburne");
    state.units[cleburne].hex = Some(blocker);
    assert_eq!(item(&score(&rules, &state), "nashville-loc"), 0.0, "both Nashville hexes in a blocking ZOC");
    put(&rules, &mut state, "mcarthur", "5706");
    let s = score(&rules, &state);
    assert_eq!(item(&s, "nashville-loc"), 14.0, "McArthur screens 5706: {}", detail(&s, "nashville-loc"));
    let mcarthur = unit(&rules, "mcarthur");
    state.units[mcarthur].demoralized = 1;
    assert_eq!(
        item(&score(&rules, &state), "nashville-loc"),
        7.0,
        "a demoralized unit does not screen (it is in Nashville)"
    );
}

// ----- Sc 5 -----------------------------------------------------------------------------------

/// HSN Sc 5: +12 for Fortress Rosecrans (once), +6 Murfreesboro, +3 Maple Grove but not with
/// Murfreesboro, +3 Salem, +3 Catalpa, each for undemoralized Confederate Combat of 1 or more;
/// +6 per blockhouse destroyed.
#[test]
fn sc5_places_and_blockhouses() {
    let (rules, mut state) = game(5);
    for id in ["thomas-dn", "anderson", "van-cleve", "140-in"] {
        off(&rules, &mut state, id);
    }
    put(&rules, &mut state, "ross", "5131");
    put(&rules, &mut state, "armstrong", "5231");
    put(&rules, &mut state, "crossland", "4934");
    put(&rules, &mut state, "palmer", "4730");
    let s = score(&rules, &state);
    assert_eq!(item(&s, "fortress-rosecrans"), 12.0, "both fortress hexes: 12 at most");
    assert_eq!(item(&s, "maple-grove"), 3.0);
    assert_eq!(item(&s, "salem"), 3.0);
    assert_eq!(item(&s, "catalpa"), 0.0);
    put(&rules, &mut state, "bate-b", "5232");
    let s = score(&rules, &state);
    assert_eq!(item(&s, "murfreesboro"), 6.0);
    assert_eq!(item(&s, "maple-grove"), 0.0, "not with Murfreesboro");
    let bate = unit(&rules, "bate-b");
    state.units[bate].demoralized = 2;
    assert_eq!(item(&score(&rules, &state), "murfreesboro"), 0.0, "demoralized");
    // Combat below 1: a disorganized Manpower-1 unit is worth ½.
    let ross = unit(&rules, "ross");
    off(&rules, &mut state, "armstrong");
    state.units[ross].organized = false;
    if rules.combat_value(&state, ross) < caisson_gcacw::charts::Half::whole(1) {
        assert_eq!(item(&score(&rules, &state), "fortress-rosecrans"), 0.0, "Combat ½");
    }
    record_blockhouse_destroyed(&mut state, h("5610"));
    record_blockhouse_destroyed(&mut state, h("5512"));
    record_blockhouse_destroyed(&mut state, h("5512"));
    assert_eq!(item(&score(&rules, &state), "blockhouse-destroyed"), 12.0);
}

// ----- Sc 6 -----------------------------------------------------------------------------------

/// HSN Sc 6: Brentwood held by undemoralized Union infantry is +30, or +15 with undemoralized
/// Confederate infantry next to it; otherwise +4 per Williamson County hex next to Brentwood
/// held by undemoralized Union infantry. +25 while no undemoralized Confederate division is
/// within 2 hexes.
#[test]
fn sc6_brentwood() {
    let (rules, mut state) = game(6);
    let map = rules.map();
    let brentwood = h("4910");
    put(&rules, &mut state, "cox", "4910");
    let s = score(&rules, &state);
    assert_eq!((item(&s, "brentwood-clear"), item(&s, "brentwood-contested")), (30.0, 0.0));
    assert_eq!(item(&s, "williamson-next-to-brentwood"), 0.0);
    assert_eq!(item(&s, "brentwood-cleared"), 25.0);
    let next: Vec<Hex> = map.neighbors(brentwood).map(|(_, x)| x).collect();
    let ector = unit(&rules, "ector");
    state.units[ector].hex = Some(next[0]);
    let s = score(&rules, &state);
    assert_eq!((item(&s, "brentwood-clear"), item(&s, "brentwood-contested")), (0.0, 15.0), "a brigade next to it");
    assert_eq!(item(&s, "brentwood-cleared"), 25.0, "a brigade is not a division");
    let johnson = unit(&rules, "johnson");
    state.units[johnson].hex = Some(next[1]);
    assert_eq!(item(&score(&rules, &state), "brentwood-cleared"), 0.0);
    // Not held: the Williamson hexes around it.
    off(&rules, &mut state, "cox");
    off(&rules, &mut state, "ector");
    off(&rules, &mut state, "johnson");
    let williamson: Vec<Hex> = next.iter().copied().filter(|&x| map.county(x) == Some("Williamson")).collect();
    assert!(!williamson.is_empty(), "Brentwood borders Williamson County hexes");
    for (x, id) in williamson.iter().zip(["couch", "kimball", "beatty", "elliott", "garrard", "j-moore"]) {
        put(&rules, &mut state, id, &x.to_string());
    }
    if let Some(d) = next.iter().find(|x| map.county(**x) != Some("Williamson")) {
        put(&rules, &mut state, "mcarthur", &d.to_string());
    }
    let s = score(&rules, &state);
    assert_eq!(item(&s, "williamson-next-to-brentwood"), 4.0 * williamson.len() as f64);
    assert_eq!(item(&s, "brentwood-clear") + item(&s, "brentwood-contested"), 0.0);
}

/// HSN Sc 6: +10 if undemoralized Union infantry holds Brentwood at the end of Turn 1, recorded
/// by the end-of-turn `observe`, whatever happens on Turn 2.
#[test]
fn sc6_brentwood_at_the_end_of_turn_1() {
    let (rules, mut state) = game(6);
    put(&rules, &mut state, "cox", "4910");
    observe(&rules, &mut state);
    state.turn = 2;
    put(&rules, &mut state, "cox", "5607");
    observe(&rules, &mut state);
    assert_eq!(item(&score(&rules, &state), "brentwood-turn-1"), 10.0);
    // Held during Turn 1 but not at its end.
    let (rules, mut state) = game(6);
    put(&rules, &mut state, "cox", "4910");
    observe(&rules, &mut state);
    put(&rules, &mut state, "cox", "5607");
    observe(&rules, &mut state);
    state.turn = 2;
    assert_eq!(item(&score(&rules, &state), "brentwood-turn-1"), 0.0);
}

/// HSN Sc 6: +3 per Confederate division in Davidson County that cannot trace an LOC to
/// Brentwood or Columbia past Union units and their ZOC.
#[test]
fn sc6_confederate_division_cut_off() {
    let (rules, mut state) = game(6);
    let johnson = unit(&rules, "johnson");
    let at = state.units[johnson].hex.expect("on the map");
    assert_eq!(rules.map().county(at), Some("Davidson"));
    assert_eq!(item(&score(&rules, &state), "confederate-cut-off"), 0.0);
    // Clear everyone else away, then ring Johnson with Union units.
    for u in 0..state.units.len() {
        if u != johnson {
            state.units[u].hex = None;
        }
    }
    let ring: Vec<Hex> = rules.map().neighbors(at).map(|(_, x)| x).collect();
    let union: Vec<usize> = (0..state.units.len()).filter(|&u| rules.unit_side(&state, u) == Side::Union).collect();
    for (x, &u) in ring.iter().zip(&union) {
        state.units[u].hex = Some(*x);
    }
    let s = score(&rules, &state);
    assert_eq!(item(&s, "confederate-cut-off"), 3.0, "{}", detail(&s, "confederate-cut-off"));
    // Outside Davidson County it does not count.
    let elsewhere = rules.map().hexes().find(|&x| rules.map().county(x) == Some("Maury")).expect("Maury");
    state.units[johnson].hex = Some(elsewhere);
    assert_eq!(item(&score(&rules, &state), "confederate-cut-off"), 0.0);
}

// ----- Sc 7 and 8 -----------------------------------------------------------------------------

/// HSN Sc 7: +9 per Confederate infantry division in Maury County south of the Duck (demoralized
/// or not), +9 once for an undemoralized one in Columbia.
#[test]
fn sc7_divisions_home_south_of_the_duck() {
    let (rules, mut state) = game(7);
    put(&rules, &mut state, "clayton", "1615");
    put(&rules, &mut state, "loring", "1715");
    put(&rules, &mut state, "walthall", "1715");
    let walthall = unit(&rules, "walthall");
    state.units[walthall].demoralized = 2;
    let s = score(&rules, &state);
    assert_eq!(item(&s, "division-south-of-duck"), 27.0, "{}", detail(&s, "division-south-of-duck"));
    assert_eq!(item(&s, "columbia"), 9.0);
    off(&rules, &mut state, "loring");
    let s = score(&rules, &state);
    assert_eq!(item(&s, "columbia"), 0.0, "only a demoralized division in Columbia");
    put(&rules, &mut state, "bell", "1715");
    assert_eq!(item(&score(&rules, &state), "columbia"), 0.0, "cavalry does not count");
    put(&rules, &mut state, "clayton", "2613");
    assert_eq!(item(&score(&rules, &state), "division-south-of-duck"), 9.0, "2613 is north of the Duck");
}

/// HSN Sc 8: +15 for an undemoralized Union division in Lynnville or Colored Church, 15 at most.
#[test]
fn sc8_lynnville_or_colored_church() {
    let (rules, mut state) = game(8);
    put(&rules, &mut state, "kimball", "0423");
    put(&rules, &mut state, "beatty", "0324");
    assert_eq!(item(&score(&rules, &state), "lynnville-or-colored-church"), 15.0);
    off(&rules, &mut state, "kimball");
    let beatty = unit(&rules, "beatty");
    state.units[beatty].demoralized = 1;
    put(&rules, &mut state, "coon", "0423");
    assert_eq!(item(&score(&rules, &state), "lynnville-or-colored-church"), 0.0, "demoralized, or cavalry");
}

// ----- levels -----------------------------------------------------------------------------------

/// Each scenario's victory-level table at its boundaries (HSN Sc 1–8).
#[test]
fn levels_at_their_boundaries() {
    let c = |s: &str| format!("Confederate {s} Victory");
    let u = |s: &str| format!("Union {s} Victory");
    let tables: [(u16, Vec<(f64, String)>); 8] = [
        (
            1,
            vec![
                (15.0, c("Decisive")),
                (14.0, c("Substantive")),
                (12.0, c("Substantive")),
                (11.0, c("Marginal")),
                (9.0, c("Marginal")),
                (8.0, u("Marginal")),
                (6.0, u("Marginal")),
                (5.0, u("Substantive")),
                (3.0, u("Substantive")),
                (2.0, u("Decisive")),
                (-10.0, u("Decisive")),
            ],
        ),
        (
            2,
            vec![
                (66.0, u("Decisive")),
                (65.0, u("Substantive")),
                (53.0, u("Substantive")),
                (52.0, u("Marginal")),
                (40.0, u("Marginal")),
                (39.0, c("Marginal")),
                (27.0, c("Marginal")),
                (26.0, c("Substantive")),
                (14.0, c("Substantive")),
                (13.0, c("Decisive")),
            ],
        ),
        (
            3,
            vec![
                (63.0, u("Decisive")),
                (62.0, u("Substantive")),
                (48.0, u("Substantive")),
                (47.0, u("Marginal")),
                (32.0, u("Marginal")),
                (31.0, c("Marginal")),
                (14.0, c("Marginal")),
                (13.0, c("Substantive")),
                (-2.0, c("Substantive")),
                (-3.0, c("Decisive")),
            ],
        ),
        (
            4,
            vec![
                (70.0, u("Decisive")),
                (69.0, u("Substantive")),
                (63.0, u("Substantive")),
                (62.0, u("Marginal")),
                (56.0, u("Marginal")),
                (55.0, c("Marginal")),
                (49.0, c("Marginal")),
                (48.0, c("Substantive")),
                (42.0, c("Substantive")),
                (41.0, c("Decisive")),
            ],
        ),
        (
            5,
            vec![
                (58.0, c("Decisive")),
                (57.0, c("Substantive")),
                (51.0, c("Substantive")),
                (50.0, c("Marginal")),
                (43.0, c("Marginal")),
                (42.0, u("Marginal")),
                (35.0, u("Marginal")),
                (34.0, u("Substantive")),
                (28.0, u("Substantive")),
                (27.0, u("Decisive")),
            ],
        ),
        (
            6,
            vec![
                (55.0, u("Decisive")),
                (54.0, u("Substantive")),
                (45.0, u("Substantive")),
                (44.0, u("Marginal")),
                (35.0, u("Marginal")),
                (34.0, c("Marginal")),
                (25.0, c("Marginal")),
                (24.0, c("Substantive")),
                (15.0, c("Substantive")),
                (14.0, c("Decisive")),
            ],
        ),
        (
            7,
            vec![
                (90.0, c("Decisive")),
                (89.0, c("Substantive")),
                (80.0, c("Substantive")),
                (79.0, c("Marginal")),
                (70.0, c("Marginal")),
                (69.0, u("Marginal")),
                (60.0, u("Marginal")),
                (59.0, u("Substantive")),
                (50.0, u("Substantive")),
                (49.0, u("Decisive")),
            ],
        ),
        (
            8,
            vec![
                (21.0, u("Decisive")),
                (20.0, u("Substantive")),
                (17.0, u("Substantive")),
                (16.0, u("Marginal")),
                (13.0, u("Marginal")),
                (12.0, c("Marginal")),
                (9.0, c("Marginal")),
                (8.0, c("Substantive")),
                (5.0, c("Substantive")),
                (4.0, c("Decisive")),
            ],
        ),
    ];
    for (n, rows) in tables {
        let (rules, _) = game(n);
        for (total, want) in rows {
            assert_eq!(level(&rules.scenario().victory, total), want, "hsn-{n} at {total}");
        }
    }
}

/// HSN Sc 8 through the whole score: Lynnville (15) and 2 Confederate Manpower lost in combat
/// (+6) make 21, a Decisive Victory; one Union point lost in a retreat (−2) makes 19.
#[test]
fn sc8_score_total_and_level() {
    let (rules, mut state) = game(8);
    put(&rules, &mut state, "kimball", "0423");
    let walthall = unit(&rules, "walthall");
    loss(&mut state, walthall, 2, LossCause::Combat);
    let s = score(&rules, &state);
    assert_eq!((s.total, s.level.as_str()), (21.0, "Union Decisive Victory"));
    let elliott = unit(&rules, "elliott");
    loss(&mut state, elliott, 1, LossCause::Retreat);
    let s = score(&rules, &state);
    assert_eq!((s.total, s.level.as_str()), (19.0, "Union Substantive Victory"));
}

/// VP figures print as the rulebook does.
#[test]
fn vp_text_prints_halves() {
    assert_eq!(vp_text(1.5), "1½");
    assert_eq!(vp_text(0.5), "½");
    assert_eq!(vp_text(-0.5), "−½");
    assert_eq!(vp_text(2.0), "2");
    assert_eq!(vp_text(-12.0), "−12");
}

#[test]
fn only_the_scenarios_that_say_so_score_burned_stations() {
    // GCACW 5.4: every station of the map destroyed, at the start of each HSN scenario. The score
    // moves exactly where `scores_stations` says it may (HSN Sc 2 Brentwood, Sc 9 stations).
    for n in 1..=9 {
        let (rules, mut state) = game(n);
        let before = score(&rules, &state).total;
        let map = rules.map();
        for i in 0..map.index_len() {
            let hex = map.hex_at(i);
            if map.contains(hex) && rules.is_station(hex) {
                state.stations.insert(hex, StationMark::Destroyed);
            }
        }
        assert!(!state.stations.is_empty(), "hsn-{n} has stations");
        let after = score(&rules, &state).total;
        assert_eq!(victory::scores_stations(&rules), after != before, "hsn-{n}: {before} then {after}");
        assert_eq!(victory::scores_stations(&rules), n == 2 || n == 9, "hsn-{n}");
    }
}
