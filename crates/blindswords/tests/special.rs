//! The scenario special rules through the engine (`crate::special`): reinforcements delayed by
//! the enemy then entering at the nearest eligible hex (SR 10.11), the 7th Arkansas's free
//! Maneuver (EX 16.0b), Crittenden's Right Hook and its secrecy (EX 16.3), exits (SR 10.12,
//! EX 16.4g), Sudden Death (EX 16.1) and the optional rules as game options (EX 16.1f, 16.1g).

use caisson_blindswords::catalog::Side;
use caisson_blindswords::charts::Order;
use caisson_blindswords::registry::{new_game, notices, SYSTEM};
use caisson_blindswords::setup::Data;
use caisson_blindswords::special::{self, Options};
use caisson_blindswords::state::{Activator, MoveFor, Moving, Place, Stage, State};
use caisson_blindswords::{movement, sequence, BlindSwords};
use caisson_hexmap::Hex;
use caisson_kernel::{random_choice, Dice, DiceMode, Game, Pending, Rules, Setup};

fn start(scenario: &str) -> (BlindSwords, State) {
    BlindSwords::new(Data::builtin().expect("built-in data"), scenario).expect("scenario")
}

fn hex(s: &str) -> Hex {
    s.parse().expect("hex")
}

fn options(rules: &BlindSwords, state: &State) -> Vec<String> {
    match rules.pending(state) {
        Pending::Decide(d) => d.options.into_iter().map(|o| o.id).collect(),
        other => panic!("no decision pending: {other:?}"),
    }
}

/// Every unit of a side off the map, out of the way of a test.
fn clear(state: &mut State, side: Side) {
    for u in state.units.iter_mut().filter(|u| u.side == side) {
        if matches!(u.place, Place::Map(_)) {
            u.place = Place::Eliminated;
        }
    }
}

fn put(state: &mut State, id: &str, at: Hex) -> usize {
    let i = state.unit_index(id).expect(id);
    state.units[i].place = Place::Map(at);
    i
}

/// SR 10.11 (digest §8 T66): Laiboldt's brigade (16.0, entry 1025) with a Confederate regiment next to 1025 is
/// delayed on its first activation; activated again next turn with 1025 still threatened, it
/// is placed, all in one hex, at one of the closest hexes that are neither occupied by nor
/// adjacent to the enemy.
#[test]
fn sr_10_11_reinforcement_delayed_then_nearest_eligible_hex() {
    let (rules, mut state) = start("pv-16-0");
    let line =
        rules.scenario().reinforcement.iter().position(|r| r.brigades.iter().any(|b| b == "laiboldt")).expect("line");
    for u in state.units.iter_mut().filter(|u| u.brigade.as_deref() == Some("laiboldt")) {
        u.place = Place::Waiting(line);
    }
    state.to_place.clear();
    clear(&mut state, Side::Confederate);
    put(&mut state, "c-2ar", hex("1026"));
    let map = &rules.data().map;
    assert_eq!(map.distance(hex("1025"), hex("1026")), 1);
    state.turn = 3;
    state.stage = Stage::Orders { brigade: "laiboldt".into(), by: Activator::Command };
    rules.choose(&mut state, "order:maneuver").expect("order");
    assert_eq!(state.special.delayed, vec![(line, 3)]);
    assert!(state.log.iter().any(|l| l.text.contains("delayed to the next turn")));
    let regiment = state.unit_index("u-2mo").expect("2MO");
    assert_eq!(state.units[regiment].place, Place::Waiting(line), "not placed this turn");

    state.turn = 4;
    state.stage = Stage::Orders { brigade: "laiboldt".into(), by: Activator::Command };
    rules.choose(&mut state, "order:maneuver").expect("order");
    let offered: Vec<Hex> = match rules.pending(&state) {
        Pending::Decide(d) if d.kind == "arrive" => {
            d.options.iter().filter_map(|o| o.id.strip_prefix("arrive:")).map(hex).collect()
        }
        _ => state.hex_of(regiment).into_iter().collect(),
    };
    assert!(!offered.is_empty());
    let enemy = hex("1026");
    let threatened = |h: Hex| map.distance(h, enemy) <= 1;
    let d = map.distance(offered[0], hex("1025"));
    assert!(d >= 1 && offered.iter().all(|h| map.distance(*h, hex("1025")) == d && !threatened(*h)));
    let area = &rules.scenario().area;
    let closer = map.hexes().filter(|h| area.contains(*h) && !threatened(*h)).any(|h| map.distance(h, hex("1025")) < d);
    assert!(!closer, "no eligible hex is closer than {d}");
    let to = offered[0];
    if matches!(state.stage, Stage::Arrive { .. }) {
        rules.choose(&mut state, &format!("arrive:{to}")).expect("enter");
    }
    for id in ["u-2mo", "u-15mo", "u-44il", "u-73il"] {
        let i = state.unit_index(id).expect(id);
        assert_eq!(state.units[i].place, Place::Map(to), "{id}: the whole brigade is placed in {to}");
    }
    rules.check(&state).expect("invariants");
}

/// EX 16.0b: on turn 1 a Limited Activation of Liddell's brigade still lets the 7th Arkansas
/// move, under a Maneuver order, and no other regiment of the brigade.
#[test]
fn ex_16_0b_7th_arkansas_maneuvers_after_a_limited_activation() {
    let (rules, mut state) = start("pv-16-0");
    for i in state.to_place.clone() {
        state.units[i].place = Place::Eliminated;
    }
    state.to_place.clear();
    state.stage = Stage::ActivationRoll { chit: "buckner".into(), brigade: "liddell".into() };
    rules.roll(&mut state, &[6]).expect("roll");
    assert!(state.log.iter().any(|l| l.text.contains("Limited Activation")));
    let seventh = state.unit_index("c-7ar").expect("7AR");
    let Stage::Move { for_: MoveFor::Brigade { order, .. }, current: Some(m), .. } = &state.stage else {
        panic!("the 7th Arkansas should be moving: {:?}", state.stage);
    };
    assert_eq!((*order, m.unit), (Order::Maneuver, seventh));
    let ma = movement::allowance(&rules.data().charts, state.units[seventh].ty, Order::Maneuver);
    assert!((m.mp - ma).abs() < f64::EPSILON);
    rules.choose(&mut state, "stop").expect("stop");
    assert!(!matches!(state.stage, Stage::Move { .. }), "no other regiment moves: {:?}", state.stage);

    // Turn 2: the rule is over, the Limited Activation moves nobody.
    state.turn = 2;
    state.stage = Stage::ActivationRoll { chit: "buckner".into(), brigade: "liddell".into() };
    rules.roll(&mut state, &[6]).expect("roll");
    assert!(!matches!(state.stage, Stage::Move { .. }));
}

/// Plays pv-16-3 to the Buell roll of the turn: the roll is a 1, the marker stays.
fn to_buell_roll(rules: &BlindSwords, state: &mut State, turn: u16) {
    state.turn = turn;
    state.stage = Stage::BuellRoll;
    rules.roll(state, &[1]).expect("Buell roll");
}

/// EX 16.3 (digest §8 T60): revealed after a Buell roll, the Right Hook gives the Confederates 5 VP and takes
/// back the turn's per-turn VP, takes the Buell Marker off the track for two turns, removes A.
/// McCook, brings Van Cleve and Wood, and releases II Corps to enter two brigades a turn west of
/// 18XX.
#[test]
fn ex_16_3_right_hook_reveal() {
    let (rules, mut state) = start("pv-16-3");
    assert_eq!(state.stage, Stage::RightHookSecret);
    assert_eq!(options(&rules, &state), ["hook:right-hook", "hook:no-right-hook"]);
    rules.choose(&mut state, "hook:right-hook").expect("secret");
    assert_eq!(state.special.hook, Some(true));
    state.special.award = [3, 0];
    state.vp = [3, 0];
    to_buell_roll(&rules, &mut state, 2);
    assert!(matches!(state.stage, Stage::RightHookReveal { .. }));
    assert_eq!(options(&rules, &state), ["hook:reveal", "hook:keep"]);
    rules.choose(&mut state, "hook:reveal").expect("reveal");
    assert!(state.special.hook_revealed);
    assert_eq!(state.vp, [0, 5], "5 VP to the Confederates, this turn's 3 Union VP taken back");
    assert_eq!(state.buell_box, None);
    assert_eq!(state.special.buell_returns, Some(4));
    assert!(!state.chits.in_play.contains(&"a-mccook".to_string()));
    assert!(
        state.chits.in_play.contains(&"van-cleve".to_string()) && state.chits.in_play.contains(&"wood".to_string())
    );
    let ii = ["beatty", "hawkins", "matthews", "harker", "hascall", "wagner", "e-mccook"];
    for b in ii {
        assert!(!state.brigade(b).expect(b).on_hold, "{b} released");
    }
    assert!(caisson_blindswords::victory::per_turn(&rules, &state).is_empty(), "no per-turn VP from now on");

    // Entry west of 18XX on the south edge; two brigades a turn.
    let unit = |state: &State, b: &str| state.units.iter().position(|u| u.brigade.as_deref() == Some(b)).expect(b);
    let beatty = unit(&state, "beatty");
    assert!(matches!(state.units[beatty].place, Place::Waiting(_)));
    let hexes = special::entry_hexes(&rules, &state, beatty);
    assert!(!hexes.is_empty() && hexes.iter().all(|h| h.row == 40 && h.col < 18), "{hexes:?}");
    let (hawkins, matthews) = (unit(&state, "hawkins"), unit(&state, "matthews"));
    special::entering(&mut state, beatty);
    special::entering(&mut state, hawkins);
    assert!(special::entry_hexes(&rules, &state, matthews).is_empty(), "a third brigade waits");
    assert!(!special::entry_hexes(&rules, &state, beatty).is_empty(), "Beatty's other units still enter");
}

/// EX 16.3: the marker must be played by 4 PM (turn 6): a Right Hook is then revealed, and a No
/// Right Hook marker is only kept.
#[test]
fn ex_16_3_right_hook_by_4_pm() {
    for (pick, offered) in [("hook:right-hook", "hook:reveal"), ("hook:no-right-hook", "hook:keep")] {
        let (rules, mut state) = start("pv-16-3");
        rules.choose(&mut state, pick).expect("secret");
        to_buell_roll(&rules, &mut state, 6);
        assert_eq!(options(&rules, &state), [offered]);
        rules.choose(&mut state, offered).expect("choice");
        to_buell_roll(&rules, &mut state, 7);
        assert!(!matches!(state.stage, Stage::RightHookReveal { .. }), "no decision after 4 PM");
    }
}

/// EX 16.3: the Confederate view is the same whichever side of the marker the Union picked,
/// until the reveal: two games, one per side of the marker, the same dice and the same choices.
#[test]
fn ex_16_3_confederate_view_never_shows_the_marker() {
    let mut games: Vec<Game<BlindSwords>> = ["hook:right-hook", "hook:no-right-hook"]
        .iter()
        .map(|pick| {
            let (rules, state) = start("pv-16-3");
            let setup = Setup {
                system: SYSTEM.into(),
                scenario: "pv-16-3".into(),
                seed: 7,
                dice: DiceMode::Seeded,
                options: vec![],
            };
            let mut g = Game::new(rules, state, setup);
            g.choose(pick).expect("secret");
            g
        })
        .collect();
    let mut dice = [Dice::new(11), Dice::new(11)];
    let same = |games: &[Game<BlindSwords>], steps: usize| {
        let views: Vec<String> = games
            .iter()
            .map(|g| serde_json::to_string(&g.rules().view(g.state(), Some("confederate"))).unwrap_or_default())
            .collect();
        assert_eq!(views[0], views[1], "step {steps}: the Confederate view differs");
        assert!(views[0].contains("\"right_hook\":\"hidden\""));
        let union = serde_json::to_string(&games[0].rules().view(games[0].state(), Some("union"))).unwrap_or_default();
        assert!(union.contains("\"right_hook\":\"right-hook\""));
    };
    let mut steps = 0;
    let mut asked = false;
    // Turn 1 to its end-of-turn decision on the marker and past it; the views are compared every
    // ten steps (a debug build serialises them slowly) and around the decision.
    while games[0].state().turn == 1 {
        let hook = games[0].pending().is_some_and(|p| p.kind == "right-hook");
        if steps % 10 == 0 || hook {
            same(&games, steps);
        }
        for (g, d) in games.iter_mut().zip(&mut dice) {
            let p = g.pending().expect("a decision");
            assert_eq!(p.kind == "right-hook", hook, "the decision comes in both games");
            let id = if hook { "hook:keep".to_string() } else { random_choice(&p, d).to_string() };
            g.choose(&id).unwrap_or_else(|e| panic!("{id}: {e}"));
        }
        asked |= hook;
        steps += 1;
    }
    same(&games, steps);
    assert!(asked, "the marker decision came after the Buell roll");
}

/// EX 16.4g, SR 10.12 (digest §8 T61): from 6 PM a unit at 4017 exits and counts; a Confederate unit may not
/// exit while Union troops hold 4009; a unit elsewhere only withdraws off an edge, uncounted.
#[test]
fn ex_16_4g_exit_counts_for_victory() {
    let (rules, mut state) = start("pv-16-4");
    for i in state.to_place.clone() {
        state.units[i].place = Place::Eliminated;
    }
    state.to_place.clear();
    clear(&mut state, Side::Union);
    clear(&mut state, Side::Confederate);
    let union = put(&mut state, "u-2mo", hex("4017"));
    let rebel = put(&mut state, "c-7ar", hex("3917"));
    let blocker = put(&mut state, "u-15mo", hex("4009"));
    assert_eq!(rules.data().map.distance(hex("3917"), hex("4017")), 1);
    let moving = |unit: usize, brigade: &str| Stage::Move {
        for_: MoveFor::Brigade { brigade: brigade.into(), order: Order::Maneuver, by: Activator::Command },
        moved: Vec::new(),
        current: Some(Moving::new(unit, 4.0)),
    };
    let label = |state: &State| match rules.pending(state) {
        Pending::Decide(d) => d.options.iter().find(|o| o.id == "exit").map(|o| o.label.clone()),
        _ => None,
    };
    state.turn = 10;
    state.stage = moving(union, "laiboldt");
    assert!(label(&state).is_some_and(|l| l.contains("SR 10.12")), "before 6 PM: a plain withdrawal off the edge");
    state.turn = 11;
    state.stage = moving(rebel, "liddell");
    assert_eq!(label(&state), None, "Union troops hold 4009");
    state.units[blocker].place = Place::Eliminated;
    assert!(label(&state).is_some_and(|l| l.contains("EX 16.4g")));
    state.stage = moving(union, "laiboldt");
    assert!(label(&state).is_some_and(|l| l.contains("EX 16.4g")));
    rules.choose(&mut state, "exit").expect("exit");
    assert_eq!(state.units[union].place, Place::Exited);
    assert_eq!(special::exits(&state), [1, 0]);
    let score = caisson_blindswords::victory::score(&rules, &state);
    assert!(score.lines.iter().any(|l| l.contains("Exited (EX 16.4g): Union 1, Confederate 0")), "{:?}", score.lines);
    rules.check(&state).expect("invariants");
}

/// EX 16.1 Sudden Death: at the Victory Point Awards, the Union holding the three per-turn hexes
/// (its start markers) and two of its end objectives wins a smashing victory at once.
#[test]
fn ex_16_1_sudden_death() {
    let (rules, mut state) = start("pv-16-1");
    for i in state.to_place.clone() {
        state.units[i].place = Place::Eliminated;
    }
    state.to_place.clear();
    let out = std::mem::take(&mut state.chits.cup);
    state.chits.out.extend(out);
    state.stage = Stage::Draw;
    sequence::advance(&rules, &mut state);
    assert_ne!(state.stage, Stage::Over, "the start markers alone are not enough");
    state.control.retain(|(h, _)| *h != hex("3729") && *h != hex("3908"));
    state.control.push((hex("3729"), Side::Union));
    state.control.push((hex("3908"), Side::Union));
    state.stage = Stage::Draw;
    state.chits.cup.clear();
    sequence::advance(&rules, &mut state);
    assert_eq!(state.stage, Stage::Over);
    assert_eq!(state.special.sudden_death, Some(Side::Union));
    let score = caisson_blindswords::victory::score(&rules, &state);
    assert_eq!(score.result, "Union smashing victory (Sudden Death)");
    assert_eq!(score.winner, Some(Side::Union));
}

fn setup(scenario: &str, options: &[&str]) -> Setup {
    Setup {
        system: SYSTEM.into(),
        scenario: scenario.into(),
        seed: 1,
        dice: DiceMode::Manual,
        options: options.iter().map(|o| (*o).to_string()).collect(),
    }
}

/// The optional rules are game options where the scenario has them, refused elsewhere, and the
/// notices list them as offered.
#[test]
fn optional_rules_are_game_options() {
    assert!(new_game(&setup("pv-16-1", &["night=on", "great-grandfather=on"])).is_ok());
    // pv-16-0's only option is its solo variant (EX 16.0d).
    assert!(new_game(&setup("pv-16-0", &["night=on"]))
        .is_err_and(|e| e.contains("unknown game option `night=on` (known: solo=liddell|off, rebuild=on|off)")));
    // The SR 13.2b Rebuild Option is a series rule, offered in every scenario.
    assert!(new_game(&setup("pv-16-2", &["night=on"])).is_err_and(|e| e.contains("(known: rebuild=on|off)")));
    assert!(new_game(&setup("pv-16-2", &["rebuild=on"])).is_ok());
    assert!(new_game(&setup("pv-16-1", &["night=maybe"])).is_err());
    assert!(new_game(&setup("pv-16-1", &["bogus=on"])).is_err_and(|e| e.contains("night=on|off")));
    let n = notices("pv-16-1").expect("notices");
    assert!(n.iter().any(|l| l.contains("Optional rule offered: Night") && l.contains("--option night=on")));
    assert!(n.iter().any(|l| l.contains("Optional rule offered: The Designer's Great-Grandfather")));
    assert!(!n.iter().any(|l| l.contains("Optional rule not offered")), "{n:?}");
}

fn with(scenario: &str, options: Options) -> (BlindSwords, State) {
    BlindSwords::with_options(Data::builtin().expect("data"), scenario, options).expect("scenario")
}

/// EX 16.1g Night: three more turns (A-11 times); on a night turn terrain off roads costs
/// double and no unit is supported; artillery reaches one hex.
#[test]
fn ex_16_1g_night() {
    let (day, _) = start("pv-16-1");
    assert_eq!(day.turns(), 14);
    let (rules, mut state) = with("pv-16-1", Options { night: true, ..Options::default() });
    assert_eq!(rules.turns(), 17);
    assert_eq!(rules.clock(15), "8:00 PM");
    let unit = state.unit_index("u-123il").expect("123IL");
    let from = hex("2209");
    let road = |to: Hex| rules.data().map.hexside(from, to).contains(caisson_hexmap::Hexside::ROAD);
    let costs = |state: &State| -> Vec<(Hex, f64, bool)> {
        movement::steps(&rules, state, unit, 99.0, true, Some(Order::Attack))
            .into_iter()
            .map(|s| (s.hex, s.cost.mp, road(s.hex)))
            .collect()
    };
    state.turn = 14;
    let dusk = costs(&state);
    assert!(special::support_allowed(&rules, &state));
    state.turn = 15;
    let night = costs(&state);
    assert!(!special::support_allowed(&rules, &state));
    let mut doubled = 0;
    assert_eq!(state.hex_of(unit), Some(from));
    for ((h, d, road), (h2, n, _)) in dusk.iter().zip(&night) {
        assert_eq!(h, h2);
        if !road {
            assert!((n - 2.0 * d).abs() < 1e-9, "{h}: {d} by day, {n} by night");
            doubled += 1;
        }
    }
    assert!(doubled > 0);
    let from = hex("2309");
    assert!(special::night_sight(&rules, &state, from, hex("2310")));
    assert!(!special::night_sight(&rules, &state, from, hex("2311")));
    state.turn = 14;
    assert!(special::night_sight(&rules, &state, from, hex("2311")));
}

/// EX 16.1f: with the option on, the 24th Illinois going to the Broken Track stops the game for
/// a roll; a 6 ends it with no winner (A-63b), another roll goes on; without the option, nothing.
#[test]
fn ex_16_1f_great_grandfather() {
    for (on, die) in [(true, 6u8), (true, 3), (false, 6)] {
        let (rules, mut state) = with("pv-16-1", Options { great_grandfather: on, ..Options::default() });
        let i = state.unit_index("u-24il").expect("24IL");
        state.units[i].place = Place::Broken(2);
        let first = options(&rules, &state)[0].clone();
        rules.choose(&mut state, &first).expect("a choice");
        if !on {
            assert!(!matches!(state.stage, Stage::GreatGrandfather { .. }));
            continue;
        }
        let Pending::Roll(r) = rules.pending(&state) else { panic!("the roll: {:?}", state.stage) };
        assert_eq!(r.rule, "EX 16.1f");
        rules.roll(&mut state, &[die]).expect("roll");
        let score = caisson_blindswords::victory::score(&rules, &state);
        if die == 6 {
            assert_eq!(state.stage, Stage::Over);
            assert_eq!(score.winner, None);
            assert!(score.result.contains("abandoned"));
        } else {
            assert_ne!(state.stage, Stage::Over);
            assert!(!score.result.contains("abandoned"));
            assert!(state.special.on_track, "no second roll while it stays on the track");
        }
    }
}

/// EX 14.2b, 16.1: the II Corps line of seven brigades brings each brigade in on its own release,
/// not when the last is released.
#[test]
fn ex_16_1_ii_corps_brigades_come_in_one_by_one() {
    let (rules, mut state) = start("pv-16-1");
    state.stage = Stage::Release { left: 1, corps: vec!["ii-corps".into()] };
    rules.choose(&mut state, "release:beatty").expect("release");
    let place = |b: &str| state.units.iter().find(|u| u.brigade.as_deref() == Some(b)).map(|u| u.place);
    assert!(matches!(place("beatty"), Some(Place::Waiting(_))));
    assert!(matches!(place("hawkins"), Some(Place::NotYet(_))));
}

/// EX 16.1c: with Union troops in 3736 when the first II Corps brigade is released, Wheeler is
/// placed by his owner in a hex with no unit within 5 hexes of a Perryville town hex.
#[test]
fn ex_16_1c_wheeler_falls_back_near_perryville() {
    let (rules, mut state) = start("pv-16-1");
    for i in state.to_place.clone() {
        state.units[i].place = Place::Eliminated;
    }
    state.to_place.clear();
    put(&mut state, "u-2mo", hex("3736"));
    state.stage = Stage::Release { left: 1, corps: vec!["ii-corps".into()] };
    rules.choose(&mut state, "release:beatty").expect("release");
    let line =
        rules.scenario().reinforcement.iter().position(|r| r.brigades.iter().any(|b| b == "wheeler")).expect("line");
    assert_eq!(state.special.fallback, vec![line]);
    let wheeler = *state.to_place.first().expect("Wheeler to place");
    assert_eq!(state.units[wheeler].brigade.as_deref(), Some("wheeler"));
    state.stage = Stage::Place { unit: wheeler };
    let Pending::Decide(d) = rules.pending(&state) else { panic!("placement") };
    assert!(d.prompt.contains("EX 16.1c"), "{}", d.prompt);
    let map = &rules.data().map;
    for h in d.options.iter().filter_map(|o| o.id.strip_prefix("hex:")).map(hex) {
        assert!(state.units_at(h).next().is_none(), "{h} is free");
        assert!(rules.towns().iter().any(|t| map.distance(*t, h) <= 5), "{h} near Perryville");
    }
    assert!(!d.options.is_empty());
}
