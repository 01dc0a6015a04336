//! HSN Advanced Game: Army Initiative (HSN-A 3.0), the Winter Weather Phase and winter's effects
//! (4.0), and the Random Events Phase with every event (2.0, 2.2), driven through the sequence
//! of play with the dice given.

mod common;
use caisson_gcacw::campaign::{ArmyInitiative, Winter};
use caisson_gcacw::charts::{AttackType, Half};
use caisson_gcacw::combat::{assess, Attack};
use caisson_gcacw::events::{self, Event};
use caisson_gcacw::movement::{self, MoveContext};
use caisson_gcacw::registry::{hsn, notices};
use caisson_gcacw::sequence::{choose, enter, initiative_winner, pending, roll, start_turn, Phase};
use caisson_gcacw::state::{March, Stage, State};
use caisson_gcacw::{actions, activation, recovery, winter};
use caisson_gcacw::{Gcacw, Settings, Side};
use caisson_hexmap::{Hex, Hexside, Terrain};
use caisson_kernel::Pending;
use common::{option_ids, place};

fn h(id: u16) -> Hex {
    Hex::new(i16::try_from(id / 100).expect("column"), i16::try_from(id % 100).expect("row"))
}

/// Scenario 9 on `turn` with every counter off the map.
fn game(turn: u16) -> (Gcacw, State) {
    let (rules, mut state) = Gcacw::new(hsn().expect("HSN data loads"), "hsn-9", Settings::default()).expect("hsn-9");
    for u in &mut state.units {
        u.hex = None;
    }
    for l in &mut state.leaders {
        l.with = None;
    }
    state.turn = turn;
    state.automatic.clear();
    state.phase = Phase::ActionCycle;
    (rules, state)
}

fn winter_on(state: &mut State, start: u16) {
    state.campaign.winter = Some(Winter { start, last: start + 6 });
}

fn action_ids(rules: &Gcacw, state: &State, side: Side) -> Vec<String> {
    actions::options(rules, state, side).into_iter().map(|c| c.id).collect()
}

fn roll_modifiers(rules: &Gcacw, state: &State) -> Vec<(String, i32)> {
    match pending(rules, state) {
        Pending::Roll(r) => r.modifiers.into_iter().map(|m| (m.label, m.value)).collect(),
        other => panic!("expected a roll, got {other:?}"),
    }
}

/// Rolls the Random Events Table with `dice` on the current turn.
fn event(rules: &Gcacw, state: &mut State, dice: [u8; 2]) {
    enter(rules, state, Phase::RandomEvents);
    assert!(matches!(state.stage, Stage::EventRoll { .. }), "{:?}", state.stage);
    roll(rules, state, &dice).expect("event roll");
}

/// The Movement Allowance a March of `u` gets from `dice` (the march stops before moving).
fn march_ma(rules: &Gcacw, state: &mut State, u: usize, dice: &[u8]) -> (u8, Stage) {
    state.stage = Stage::MarchAllowance { unit: u };
    roll(rules, state, dice).expect("march roll");
    let ma = match &state.stage {
        Stage::Moving { march } | Stage::ForceMarch { march } | Stage::Riders { march } => march.ma,
        Stage::ExtendedMarch { march } => march.ma,
        other => panic!("march did not start: {other:?}"),
    };
    (ma, state.stage.clone())
}

fn moving(state: &mut State, u: usize, mp: u16) {
    state.stage = Stage::Moving {
        march: March {
            unit: u,
            ma: 6,
            left: Half::whole(mp),
            moved: false,
            started_in_zoc: false,
            wagon_paid: false,
            stopped: false,
            declined: Vec::new(),
            blockhouse_tried: false,
            path: Vec::new(),
        },
    };
}

// ---------------------------------------------------------------- HSN-A 3.0 Army Initiative

/// HSN-A 3.0: the Advanced Game starts at Confederate Advantage (data, kind `army-initiative`),
/// and the rule is no longer listed as not enforced.
#[test]
fn army_initiative_starts_confederate_from_data_hsn_a_3_0() {
    let (rules, state) = Gcacw::new(hsn().expect("data"), "hsn-9", Settings::default()).expect("hsn-9");
    assert_eq!(state.campaign.army_initiative, ArmyInitiative::Confederate);
    assert_eq!(events::army_initiative_start(&rules), Some(ArmyInitiative::Confederate));
    let lines = notices("hsn-9").expect("notices");
    for title in ["Army Initiative", "Winter Weather", "Random Events"] {
        assert!(!lines.iter().any(|l| l.contains(&format!("not yet enforced: {title}"))), "{title}: {lines:#?}");
    }
}

/// HSN-A 3.0: ties by level — Confederate all, Neutral Union 1-1..3-3 and Confederate 4-4..6-6,
/// Union all; a higher die always wins.
#[test]
fn army_initiative_decides_ties_hsn_a_3_0() {
    let (rules, mut state) = game(5);
    for (level, winners) in [
        (ArmyInitiative::Confederate, [Side::Confederate; 6]),
        (
            ArmyInitiative::Neutral,
            [Side::Union, Side::Union, Side::Union, Side::Confederate, Side::Confederate, Side::Confederate],
        ),
        (ArmyInitiative::Union, [Side::Union; 6]),
    ] {
        state.campaign.army_initiative = level;
        for (d, want) in (1..=6).zip(winners) {
            assert_eq!(initiative_winner(&rules, &state, d, d), want, "{level:?} {d}-{d}");
        }
        assert_eq!(initiative_winner(&rules, &state, 2, 5), Side::Confederate);
        assert_eq!(initiative_winner(&rules, &state, 6, 1), Side::Union);
    }
}

/// HSN-A 3.0 through the Initiative Segment: under Neutral a 2-2 goes to the Union player.
#[test]
fn neutral_tie_through_the_initiative_segment_hsn_a_3_0() {
    let (rules, mut state) = game(5);
    place(&rules, &mut state, "wagner", h(3020), 6);
    place(&rules, &mut state, "brown", h(1010), 6);
    state.campaign.army_initiative = ArmyInitiative::Neutral;
    state.stage = Stage::InitiativeRoll { union: None };
    roll(&rules, &mut state, &[2]).expect("union");
    roll(&rules, &mut state, &[2]).expect("confederate");
    assert!(matches!(state.stage, Stage::Action { side: Side::Union, .. }), "{:?}", state.stage);
}

// ---------------------------------------------------------------- HSN-A 4.0 Winter Weather

/// HSN-A 4.0 Winter Weather Table: no roll before Turn 14; −2 on Turn 14 makes a 5 a 3 (no
/// effect); a 6 makes 4: winter starts on Turn 14 with the Last Turn of Winter on Turn 20.
#[test]
fn winter_weather_table_hsn_a_4_0() {
    let (rules, mut state) = game(13);
    enter(&rules, &mut state, Phase::WinterWeather);
    assert!(!matches!(state.stage, Stage::WinterWeatherRoll), "no Winter Weather roll on Turn 13");

    let (rules, mut state) = game(14);
    enter(&rules, &mut state, Phase::WinterWeather);
    assert_eq!(roll_modifiers(&rules, &state).iter().map(|m| m.1).collect::<Vec<_>>(), vec![-2]);
    roll(&rules, &mut state, &[5]).expect("roll");
    assert_eq!(state.campaign.winter, None);
    enter(&rules, &mut state, Phase::WinterWeather);
    roll(&rules, &mut state, &[6]).expect("roll");
    assert_eq!(state.campaign.winter, Some(Winter { start: 14, last: 20 }));
    assert!(winter::on(&state));
    // Once started, the phase is skipped.
    state.turn = 15;
    enter(&rules, &mut state, Phase::WinterWeather);
    assert!(!matches!(state.stage, Stage::WinterWeatherRoll));
}

/// HSN-A 4.0 modifiers: −1 on Turn 15, none on Turn 16, +1 from Turn 17 (a 3 starts winter).
#[test]
fn winter_weather_turn_modifiers_hsn_a_4_0() {
    for (turn, want) in [(15, vec![-1]), (16, vec![]), (17, vec![1]), (25, vec![1])] {
        let (rules, mut state) = game(turn);
        enter(&rules, &mut state, Phase::WinterWeather);
        assert_eq!(roll_modifiers(&rules, &state).iter().map(|m| m.1).collect::<Vec<_>>(), want, "turn {turn}");
    }
    let (rules, mut state) = game(17);
    enter(&rules, &mut state, Phase::WinterWeather);
    roll(&rules, &mut state, &[3]).expect("roll");
    assert_eq!(state.campaign.winter, Some(Winter { start: 17, last: 23 }));
}

/// HSN-A 4.0: no entrenching in winter, in the Action Phase or the Recovery Phase.
#[test]
fn no_entrenching_in_winter_hsn_a_4_0() {
    let (rules, mut state) = game(15);
    let u = place(&rules, &mut state, "wagner", h(3020), 6);
    state.units[u].fatigue = 0;
    assert!(actions::may_entrench(&rules, &state, u));
    assert!(action_ids(&rules, &state, Side::Union).contains(&"entrench:wagner".to_string()));
    assert_eq!(recovery::may_entrench(&rules, &state, Side::Union, &[]), vec![u]);
    winter_on(&mut state, 14);
    assert!(!actions::may_entrench(&rules, &state, u));
    assert!(!action_ids(&rules, &state, Side::Union).contains(&"entrench:wagner".to_string()));
    assert!(recovery::may_entrench(&rules, &state, Side::Union, &[]).is_empty());
    // After the Last Turn of Winter entrenching is back.
    state.turn = 21;
    assert!(actions::may_entrench(&rules, &state, u));
}

/// HSN-A 4.0: no Burn RR Station actions in winter.
#[test]
fn no_burning_stations_in_winter_hsn_a_4_0() {
    let (rules, mut state) = game(15);
    let station = rules.map().hexes().find(|&x| rules.is_station(x)).expect("a station");
    place(&rules, &mut state, "brown", station, 6);
    assert!(action_ids(&rules, &state, Side::Confederate).contains(&"burn:brown".to_string()));
    winter_on(&mut state, 14);
    assert!(!action_ids(&rules, &state, Side::Confederate).contains(&"burn:brown".to_string()));
}

/// HSN-A 4.0: in winter the first tied initiative roll ends the Action Cycle at once.
#[test]
fn winter_tie_ends_the_action_cycle_hsn_a_4_0() {
    let (rules, mut state) = game(15);
    place(&rules, &mut state, "wagner", h(3020), 6);
    place(&rules, &mut state, "brown", h(1010), 6);
    state.stage = Stage::InitiativeRoll { union: None };
    roll(&rules, &mut state, &[4]).expect("union");
    roll(&rules, &mut state, &[4]).expect("confederate");
    assert!(matches!(state.stage, Stage::Action { side: Side::Confederate, .. }), "no winter: a tie is won");

    winter_on(&mut state, 14);
    state.stage = Stage::InitiativeRoll { union: None };
    roll(&rules, &mut state, &[4]).expect("union");
    roll(&rules, &mut state, &[4]).expect("confederate");
    assert!(state.phase != Phase::ActionCycle, "the cycle ended: {:?} {:?}", state.phase, state.stage);
    assert!(state.log.iter().any(|e| e.text.contains("tied initiative roll ends the Action Cycle")));
}

/// HSN-A 4.0: winter movement costs as in rain (a clear hex off the roads costs more), but creeks
/// and fords stay open where rain closes them.
#[test]
fn winter_movement_costs_as_rain_but_creeks_and_fords_open_hsn_a_4_0() {
    let (rules, mut state) = game(15);
    let u = place(&rules, &mut state, "wagner", h(3020), 6);
    let base = MoveContext::new(&rules, &state, u);
    let map = rules.map();
    let with = |rain: bool, winter: bool| {
        let mut c = MoveContext::new(&rules, &state, u);
        c.rain = rain;
        c.winter = winter;
        c
    };
    let (clear, rain, cold) = (with(false, false), with(true, false), with(false, true));
    assert!(!base.winter);
    let mut dearer = 0;
    let mut opened = 0;
    for from in map.hexes() {
        for (_, to) in map.neighbors(from) {
            let side = map.hexside(from, to);
            let step = |c: &MoveContext| movement::step(&rules, c, from, to, false, false, false);
            let (a, b, w) = (step(&clear), step(&rain), step(&cold));
            if map.terrain(to) == Some(Terrain::Clear) && !side.intersects(Hexside::ANY_ROUTE) {
                if let (Some(a), Some(b), Some(w)) = (a, b, w) {
                    assert_eq!(w.cost, b.cost, "{from}->{to}: winter costs as rain");
                    if w.cost > a.cost {
                        dearer += 1;
                    }
                }
            }
            if side.intersects(Hexside::CREEK | Hexside::FORD) && b.is_none() && a.is_some() {
                assert!(w.is_some(), "{from}->{to}: creek or ford open in winter");
                opened += 1;
            }
        }
    }
    assert!(dearer > 0 && opened > 0, "dearer {dearer}, opened {opened}");
    winter_on(&mut state, 14);
    assert!(MoveContext::new(&rules, &state, u).winter);
}

/// HSN-A 4.0: in winter no unit may be picked for a March (alone or by a leader) that would raise
/// it to Fatigue Level 3 or 4.
#[test]
fn no_march_to_fatigue_3_in_winter_hsn_a_4_0() {
    let (rules, mut state) = game(15);
    let u = place(&rules, &mut state, "wagner", h(3020), 6);
    let v = place(&rules, &mut state, "whitaker", h(3021), 6);
    let stanley = rules.leader_by_id("stanley").expect("stanley");
    state.leaders[stanley].with = Some(u);
    state.units[u].fatigue = 1;
    state.units[v].fatigue = 2;
    let board = rules.board(&state);
    assert!(action_ids(&rules, &state, Side::Union).contains(&"march:whitaker".to_string()));
    assert!(activation::candidates(&rules, &state, stanley, &board).contains(&v));
    winter_on(&mut state, 14);
    let ids = action_ids(&rules, &state, Side::Union);
    assert!(ids.contains(&"march:wagner".to_string()), "fatigue 1 → 2 is allowed");
    assert!(!ids.contains(&"march:whitaker".to_string()), "fatigue 2 → 3 is not");
    let cands = activation::candidates(&rules, &state, stanley, &board);
    assert!(cands.contains(&u) && !cands.contains(&v), "{cands:?}");
}

/// HSN-A 4.0: the attacker has −2 in every combat in winter, itemised with the other modifiers.
#[test]
fn attacker_minus_two_in_winter_hsn_a_4_0() {
    let (rules, mut state) = game(15);
    place(&rules, &mut state, "wagner", h(4610), 7);
    let brown = place(&rules, &mut state, "brown", h(4611), 8);
    let attack = Attack::march(&rules, &state, brown, h(4610), AttackType::Normal);
    let find = |s: &State| {
        assess(&rules, s, &attack).attacker_modifiers.iter().find(|m| m.label.starts_with("Winter")).map(|m| m.value)
    };
    assert_eq!(find(&state), None);
    winter_on(&mut state, 14);
    assert_eq!(find(&state), Some(-2));
}

/// HSN-A 4.0: no Assault actions in winter.
#[test]
fn no_assaults_in_winter_hsn_a_4_0() {
    let (_, mut state) = game(15);
    assert!(events::assault_allowed(&state, Side::Confederate));
    winter_on(&mut state, 14);
    assert!(!events::assault_allowed(&state, Side::Confederate));
    assert!(!events::assault_allowed(&state, Side::Union));
}

// ---------------------------------------------------------------- HSN-A 2.0 Random Events

/// HSN-A 2.0: two dice from Turn 3, none before; the Basic Game scenarios never roll.
#[test]
fn random_events_phase_from_turn_3_hsn_a_2_0() {
    let (rules, mut state) = game(2);
    enter(&rules, &mut state, Phase::RandomEvents);
    assert!(!matches!(state.stage, Stage::EventRoll { .. }));
    let (rules, mut state) = game(3);
    enter(&rules, &mut state, Phase::RandomEvents);
    match pending(&rules, &state) {
        Pending::Roll(r) => assert_eq!((r.dice, r.rule.as_str()), (2, "HSN-A 2.2")),
        other => panic!("{other:?}"),
    }
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-2", Settings::default()).expect("hsn-2");
    state.turn = 3;
    enter(&rules, &mut state, Phase::RandomEvents);
    assert!(!matches!(state.stage, Stage::EventRoll { .. } | Stage::WinterWeatherRoll));
}

/// HSN-A 2.2 Command Paralysis: the side with Army Initiative (Confederate at the start); its
/// infantry march with −1 MA, and may not force march.
#[test]
fn command_paralysis_infantry_hsn_a_2_2() {
    let (rules, mut state) = game(3);
    let b = place(&rules, &mut state, "brown", h(1010), 6);
    state.units[b].fatigue = 0;
    let (ma, stage) = march_ma(&rules, &mut state, b, &[3]);
    assert_eq!(ma, 4, "1d6+1");
    assert!(matches!(stage, Stage::ForceMarch { .. }));
    state.units[b].fatigue = 0;
    event(&rules, &mut state, [1, 1]);
    assert_eq!(state.events.event, Some(Event::CommandParalysis));
    assert_eq!(state.events.paralysis, Some(Side::Confederate));
    state.phase = Phase::ActionCycle;
    let (ma, stage) = march_ma(&rules, &mut state, b, &[3]);
    assert_eq!(ma, 3, "−1");
    assert!(matches!(stage, Stage::Moving { .. } | Stage::Riders { .. }), "no force march: {stage:?}");
    assert!(!events::assault_allowed(&state, Side::Confederate));
    assert!(events::assault_allowed(&state, Side::Union));
}

/// HSN-A 2.2 Command Paralysis: cavalry −2 to a minimum of 1; under Neutral a die picks the side
/// (even: Union); under Union Advantage the Union player suffers it.
#[test]
fn command_paralysis_cavalry_and_neutral_die_hsn_a_2_2() {
    let (rules, mut state) = game(4);
    let c = place(&rules, &mut state, "croxton-a", h(3020), 2);
    state.campaign.army_initiative = ArmyInitiative::Neutral;
    event(&rules, &mut state, [1, 1]);
    assert!(matches!(state.stage, Stage::EventRoll { .. }), "a die for the side");
    roll(&rules, &mut state, &[4]).expect("die");
    assert_eq!(state.events.paralysis, Some(Side::Union));
    state.phase = Phase::ActionCycle;
    state.units[c].fatigue = 0;
    assert_eq!(march_ma(&rules, &mut state, c, &[3, 4]).0, 5, "2d6 7 − 2");
    state.units[c].fatigue = 0;
    assert_eq!(march_ma(&rules, &mut state, c, &[1, 1]).0, 1, "2 − 2, at least 1");

    let (rules, mut state) = game(4);
    state.campaign.army_initiative = ArmyInitiative::Neutral;
    event(&rules, &mut state, [1, 1]);
    roll(&rules, &mut state, &[3]).expect("die");
    assert_eq!(state.events.paralysis, Some(Side::Confederate));

    let (rules, mut state) = game(4);
    state.campaign.army_initiative = ArmyInitiative::Union;
    event(&rules, &mut state, [1, 1]);
    assert_eq!(state.events.paralysis, Some(Side::Union));
}

/// HSN-A 2.2 Accelerated Union Reinforcements (Turns 3–16): one more set is owed this turn, and
/// the Reinforcement Phase that follows makes it available before its own roll (ruling R48, R57).
#[test]
fn accelerated_union_reinforcements_hsn_a_2_2() {
    let (rules, mut state) = game(16);
    event(&rules, &mut state, [1, 2]);
    assert_eq!(state.events.event, Some(Event::AcceleratedUnionReinforcements));
    assert_eq!(state.campaign.accelerated_sets, 0, "the owed set has been taken up");
    assert!(
        state.log.iter().any(|e| e.text.contains("Accelerated Union Reinforcements, HSN-A 2.2")),
        "the Reinforcement Phase made the owed set available"
    );
    assert!(matches!(state.stage, Stage::ReinforcementRoll { side: Side::Union }), "{:?}", state.stage);
}

/// HSN-A 2.2 Grant Relieves Thomas (Turn 17+): No Effect when Confederate infantry holds no more
/// than one of Columbia, Franklin, Murfreesboro (a demoralized unit does not count).
#[test]
fn grant_relieves_thomas_no_effect_hsn_a_2_2() {
    let (rules, mut state) = game(17);
    let thomas = rules.leader_by_id("thomas").expect("thomas");
    place(&rules, &mut state, "brown", h(1715), 6);
    let b = place(&rules, &mut state, "cleburne", h(4010), 6);
    state.units[b].demoralized = 1;
    place(&rules, &mut state, "rucker", h(5232), 2);
    event(&rules, &mut state, [1, 2]);
    assert_eq!(state.events.event, Some(Event::GrantRelievesThomas));
    assert_eq!(rules.leader_counter(&state, thomas).id, "thomas");
    assert!(events::grand_assault_allowed(&state, Side::Union));
}

/// HSN-A 2.2 Grant Relieves Thomas: with two towns held, Logan (Command 3) replaces Thomas in
/// place, and a 2 bars Union grand assaults this turn and the next.
#[test]
fn grant_relieves_thomas_logan_and_no_grand_assaults_hsn_a_2_2() {
    let (rules, mut state) = game(18);
    let thomas = rules.leader_by_id("thomas").expect("thomas");
    let w = place(&rules, &mut state, "wagner", h(5707), 6);
    state.leaders[thomas].with = Some(w);
    place(&rules, &mut state, "brown", h(1715), 6);
    place(&rules, &mut state, "cleburne", h(5232), 6);
    event(&rules, &mut state, [2, 1]);
    let c = rules.leader_counter(&state, thomas);
    assert_eq!((c.id.as_str(), c.command_value), ("logan", Some(3)));
    assert_eq!(state.leaders[thomas].with, Some(w), "in the same place");
    assert_eq!(rules.leader_by_id("logan"), Some(thomas));
    roll(&rules, &mut state, &[2]).expect("die");
    assert_eq!(state.events.no_grand_assaults_through, Some(19));
    assert!(!events::grand_assault_allowed(&state, Side::Union));
    assert!(events::grand_assault_allowed(&state, Side::Confederate));
    state.turn = 19;
    start_turn_keep(&rules, &mut state);
    assert!(!events::grand_assault_allowed(&state, Side::Union), "the marker outlasts the turn");
    state.turn = 20;
    assert!(events::grand_assault_allowed(&state, Side::Union));
}

/// Clears the per-turn effects as a new turn does.
fn start_turn_keep(rules: &Gcacw, state: &mut State) {
    let turn = state.turn;
    start_turn(rules, state);
    state.turn = turn;
}

/// HSN-A 2.2 Rain: rain this turn, no entrenching in the Recovery Phase; No Effect in winter.
#[test]
fn rain_event_hsn_a_2_2() {
    let (rules, mut state) = game(5);
    let u = place(&rules, &mut state, "wagner", h(3020), 6);
    state.units[u].fatigue = 0;
    event(&rules, &mut state, [2, 2]);
    assert_eq!(state.events.event, Some(Event::Rain));
    assert!(state.rain);
    assert!(recovery::may_entrench(&rules, &state, Side::Union, &[]).is_empty());

    let (rules, mut state) = game(15);
    winter_on(&mut state, 14);
    event(&rules, &mut state, [2, 2]);
    assert_eq!(state.events.event, Some(Event::NoEffect));
    assert!(!state.rain);
}

/// HSN-A 2.2 Late Rain: double 1s start rain only once both players have gained the initiative
/// this turn; entrenching stays allowed in the Recovery Phase. No Effect in winter.
#[test]
fn late_rain_event_hsn_a_2_2() {
    let (rules, mut state) = game(5);
    let u = place(&rules, &mut state, "wagner", h(3020), 6);
    state.units[u].fatigue = 0;
    place(&rules, &mut state, "brown", h(1010), 6);
    event(&rules, &mut state, [3, 4]);
    assert_eq!(state.events.event, Some(Event::LateRain));
    state.phase = Phase::ActionCycle;
    state.stage = Stage::InitiativeRoll { union: None };
    roll(&rules, &mut state, &[1]).expect("u");
    roll(&rules, &mut state, &[1]).expect("c");
    assert!(!state.rain, "not before both sides gained the initiative");
    state.gained = [true, true];
    state.stage = Stage::InitiativeRoll { union: None };
    roll(&rules, &mut state, &[1]).expect("u");
    roll(&rules, &mut state, &[1]).expect("c");
    assert!(state.rain, "double 1s");
    assert_eq!(recovery::may_entrench(&rules, &state, Side::Union, &[]), vec![u]);

    let (rules, mut state) = game(15);
    winter_on(&mut state, 14);
    event(&rules, &mut state, [5, 5]);
    assert_eq!(state.events.event, Some(Event::NoEffect));
}

/// HSN-A 2.2 Winter Weather End Change: odd moves the Last Turn of Winter one later, even one
/// earlier; an even roll with the marker on this turn ends winter at once.
#[test]
fn winter_weather_end_change_hsn_a_2_2() {
    for (die, last) in [(1, 21), (2, 19)] {
        let (rules, mut state) = game(16);
        winter_on(&mut state, 14);
        event(&rules, &mut state, [2, 3]);
        assert_eq!(state.events.event, Some(Event::WinterWeatherEndChange));
        roll(&rules, &mut state, &[die]).expect("die");
        assert_eq!(state.campaign.winter.map(|w| w.last), Some(last));
    }
    let (rules, mut state) = game(20);
    winter_on(&mut state, 14);
    event(&rules, &mut state, [2, 3]);
    roll(&rules, &mut state, &[6]).expect("die");
    assert!(!winter::on(&state), "winter ended at once");
}

/// HSN-A 2.2 Enhanced Movement (not in winter): a die, even Union: Union infantry +1, cavalry +2.
#[test]
fn enhanced_movement_hsn_a_2_2() {
    let (rules, mut state) = game(6);
    let w = place(&rules, &mut state, "wagner", h(3020), 6);
    let c = place(&rules, &mut state, "croxton-a", h(3024), 2);
    let b = place(&rules, &mut state, "brown", h(1010), 6);
    event(&rules, &mut state, [1, 4]);
    assert_eq!(state.events.event, Some(Event::EnhancedMovement));
    roll(&rules, &mut state, &[2]).expect("die");
    assert_eq!(state.events.enhanced, Some(Side::Union));
    state.phase = Phase::ActionCycle;
    for u in [w, c, b] {
        state.units[u].fatigue = 0;
    }
    assert_eq!(march_ma(&rules, &mut state, w, &[3]).0, 4, "1d6 + 1");
    assert_eq!(march_ma(&rules, &mut state, c, &[3, 3]).0, 8, "2d6 + 2");
    assert_eq!(march_ma(&rules, &mut state, b, &[3]).0, 4, "Confederate unchanged (1d6+1)");
}

/// HSN-A 2.2 Army Initiative Change—A (Turn 11+) makes it Neutral; on Turns 3–10 the roll of 8 is
/// a Union Night March.
#[test]
fn army_initiative_change_a_hsn_a_2_2() {
    let (rules, mut state) = game(11);
    state.campaign.army_initiative = ArmyInitiative::Union;
    event(&rules, &mut state, [4, 4]);
    assert_eq!(state.events.event, Some(Event::ArmyInitiativeChangeA));
    assert_eq!(state.campaign.army_initiative, ArmyInitiative::Neutral);
    let (rules, mut state) = game(10);
    event(&rules, &mut state, [4, 4]);
    assert_eq!(state.events.event, Some(Event::UnionNightMarch));
    assert_eq!(option_ids(&rules, &state), ["night-march", "normal-action"]);
}

/// HSN-A 2.2 Army Initiative Change—B: Confederate → Neutral → Union → Neutral; No Effect before
/// Turn 11.
#[test]
fn army_initiative_change_b_hsn_a_2_2() {
    let (rules, mut state) = game(10);
    event(&rules, &mut state, [6, 6]);
    assert_eq!(state.events.event, Some(Event::NoEffect));
    assert_eq!(state.campaign.army_initiative, ArmyInitiative::Confederate);
    for (from, to) in [
        (ArmyInitiative::Confederate, ArmyInitiative::Neutral),
        (ArmyInitiative::Neutral, ArmyInitiative::Union),
        (ArmyInitiative::Union, ArmyInitiative::Neutral),
    ] {
        let (rules, mut state) = game(11);
        state.campaign.army_initiative = from;
        event(&rules, &mut state, [6, 6]);
        assert_eq!(state.campaign.army_initiative, to);
    }
}

/// HSN-A 2.2 Lyon's Kentucky Raid once per game; afterwards the 9 is Union Pontoon Bridge
/// Prohibition: no Union pontoons in this turn's Recovery Phase.
#[test]
fn lyon_raid_then_pontoon_prohibition_hsn_a_2_2() {
    let (rules, mut state) = game(7);
    event(&rules, &mut state, [4, 5]);
    assert_eq!(state.events.event, Some(Event::LyonsKentuckyRaid));
    assert!(state.campaign.lyon_raid);
    assert!(events::pontoons_allowed(&state, Side::Union));
    start_turn_keep(&rules, &mut state);
    event(&rules, &mut state, [3, 6]);
    assert_eq!(state.events.event, Some(Event::UnionPontoonBridgeProhibition));
    assert!(!events::pontoons_allowed(&state, Side::Union));
    assert!(events::pontoons_allowed(&state, Side::Confederate));
}

/// HSN-A 2.2 Union Pontoon Bridge Prohibition in the Recovery Phase: a Union unit that may build a
/// pontoon is not offered it under the prohibition.
#[test]
fn pontoon_prohibition_in_recovery_hsn_a_2_2() {
    let (rules, state0) = game(7);
    // A Union infantry unit at fatigue 0 next to a river hexside without a bridge.
    let map = rules.map();
    let site = map
        .hexes()
        .find(|&a| {
            map.neighbors(a).any(|(_, b)| {
                map.hexside(a, b).intersects(Hexside::RIVER) && !map.hexside(a, b).intersects(Hexside::ANY_ROUTE)
            })
        })
        .expect("a river hexside");
    let mut state = state0.clone();
    let u = place(&rules, &mut state, "wagner", site, 6);
    state.units[u].fatigue = 0;
    enter(&rules, &mut state, Phase::Recovery);
    let offered = |s: &State| {
        matches!(s.stage, Stage::Recovery { .. }) && option_ids(&rules, s).iter().any(|o| o.starts_with("pontoon:"))
    };
    assert!(offered(&state), "a pontoon is offered without the event");
    let mut state = state0;
    let u = place(&rules, &mut state, "wagner", site, 6);
    state.units[u].fatigue = 0;
    state.events.no_pontoon = true;
    enter(&rules, &mut state, Phase::Recovery);
    assert!(!offered(&state));
}

/// Per-turn effects end with the turn (HSN-A 2.2 "in the current turn").
#[test]
fn event_effects_last_one_turn_hsn_a_2_2() {
    let (rules, mut state) = game(5);
    event(&rules, &mut state, [1, 1]);
    assert_eq!(state.events.paralysis, Some(Side::Confederate));
    start_turn_keep(&rules, &mut state);
    assert_eq!(state.events.paralysis, None);
    assert_eq!(state.events.event.filter(|_| false), None);
}

/// HSN-A 2.2 Union Night March: the Union player wins the first two Action Phases; only March and
/// Activate Leader actions; no entrenching.
#[test]
fn night_march_initiatives_and_actions_hsn_a_2_2() {
    let (rules, mut state) = game(5);
    let u = place(&rules, &mut state, "wagner", h(3020), 6);
    state.units[u].fatigue = 0;
    let stanley = rules.leader_by_id("stanley").expect("stanley");
    state.leaders[stanley].with = Some(u);
    place(&rules, &mut state, "brown", h(1010), 6);
    event(&rules, &mut state, [4, 4]);
    choose(&rules, &mut state, "night-march").expect("night march");
    assert!(state.events.night_march);
    assert_eq!(state.automatic, vec![Side::Union, Side::Union]);
    // The first Action Phase of the cycle.
    state.phase = Phase::ActionCycle;
    caisson_gcacw::sequence::next_action_phase(&rules, &mut state);
    assert!(matches!(state.stage, Stage::Action { side: Side::Union, .. }), "{:?}", state.stage);
    assert!(events::night_march(&state));
    let ids = action_ids(&rules, &state, Side::Union);
    assert!(ids.contains(&"march:wagner".to_string()) && ids.contains(&"activate:stanley".to_string()), "{ids:?}");
    assert!(ids.iter().all(|o| o.starts_with("march:") || o.starts_with("activate:")), "{ids:?}");
    assert!(!actions::may_entrench(&rules, &state, u));

    // The normal-action option: one automatic initiative and no Night March rules.
    let (rules, mut state) = game(5);
    event(&rules, &mut state, [4, 4]);
    choose(&rules, &mut state, "normal-action").expect("normal action");
    assert!(!state.events.night_march);
    assert_eq!(state.automatic, vec![Side::Union]);
}

/// HSN-A 2.2 Night March: infantry march dice under 3 count as 3, cavalry rolls under 6 as 6;
/// no extended march roll.
#[test]
fn night_march_minimum_dice_and_no_extended_march_hsn_a_2_2() {
    let (rules, mut state) = game(5);
    let w = place(&rules, &mut state, "wagner", h(3020), 6);
    let c = place(&rules, &mut state, "croxton-a", h(3024), 2);
    state.events.night_march = true;
    state.automatic_action = true;
    state.units[w].fatigue = 0;
    assert_eq!(march_ma(&rules, &mut state, w, &[1]).0, 3);
    state.units[c].fatigue = 0;
    assert_eq!(march_ma(&rules, &mut state, c, &[2, 1]).0, 6);
    state.units[c].fatigue = 0;
    assert_eq!(march_ma(&rules, &mut state, c, &[4, 5]).0, 9);
    state.units[w].fatigue = 2;
    let (_, stage) = march_ma(&rules, &mut state, w, &[4]);
    assert!(!matches!(stage, Stage::ExtendedMarch { .. }), "{stage:?}");
    assert_eq!(state.units[w].fatigue, 3);
    state.automatic_action = false;
    state.units[w].fatigue = 2;
    let (_, stage) = march_ma(&rules, &mut state, w, &[4]);
    assert!(matches!(stage, Stage::ExtendedMarch { .. }), "outside the Night March: {stage:?}");
}

/// HSN-A 2.2 Night March: a marching unit may not enter an enemy ZOC that no Union unit occupies,
/// and may not attack.
#[test]
fn night_march_zoc_and_no_attacks_hsn_a_2_2() {
    let (rules, mut state) = game(5);
    let map = rules.map();
    let w = place(&rules, &mut state, "wagner", h(3020), 6);
    // A Confederate two hexes away.
    let near: Vec<Hex> = map.neighbors(h(3020)).map(|(_, x)| x).collect();
    let far = near
        .iter()
        .flat_map(|&n| map.neighbors(n).map(|(_, x)| x).collect::<Vec<_>>())
        .find(|x| *x != h(3020) && !near.contains(x))
        .expect("a hex two away");
    place(&rules, &mut state, "brown", far, 6);
    moving(&mut state, w, 6);
    let day = option_ids(&rules, &state);
    state.events.night_march = true;
    state.automatic_action = true;
    let night = option_ids(&rules, &state);
    let dropped: Vec<&String> = day.iter().filter(|o| !night.contains(o)).collect();
    assert!(!dropped.is_empty(), "{day:?} / {night:?}");
    for o in dropped {
        let to: Hex = o.strip_prefix("move:").and_then(|x| x.parse().ok()).expect("a move");
        assert!(map.neighbors(far).any(|(_, x)| x == to), "{o} is next to the enemy");
    }
    // Next to the enemy: attacks are offered by day, not at night.
    let (rules, mut state) = game(5);
    let w = place(&rules, &mut state, "wagner", h(4610), 7);
    place(&rules, &mut state, "brown", h(4611), 6);
    moving(&mut state, w, 6);
    assert!(option_ids(&rules, &state).iter().any(|o| o.starts_with("attack:")));
    state.events.night_march = true;
    state.automatic_action = true;
    assert!(!option_ids(&rules, &state).iter().any(|o| o.starts_with("attack:")));
}

// ---------------------------------------------------------------- view

/// The view shows Army Initiative, the winter markers and this turn's event for the turn track,
/// and the terminal status says them too.
#[test]
fn view_shows_turn_track_markers_hsn_a_2_2_3_0_4_0() {
    let (rules, mut state) = game(16);
    winter_on(&mut state, 14);
    state.campaign.army_initiative = ArmyInitiative::Neutral;
    event(&rules, &mut state, [2, 3]);
    roll(&rules, &mut state, &[1]).expect("die");
    let v = caisson_gcacw::view::view(&rules, &state);
    let t = &v["campaign"];
    assert_eq!(t["army_initiative"], "neutral");
    assert_eq!(t["winter"]["start"], 14);
    assert_eq!(t["winter"]["last"], 21);
    assert_eq!(t["event"]["name"], "Winter Weather End Change");
    let text = caisson_gcacw::view::summary(&rules, &state);
    assert!(text.contains("Army Initiative: Neutral"), "{text}");
    assert!(text.contains("Last Turn of Winter 21"), "{text}");
    assert!(text.contains("Random event this turn: Winter Weather End Change"), "{text}");
}

/// A provisional swamp hex that no road, pike or railroad enters, with the neighbours a unit
/// could leave it for once it rains (not swamp, not water, no river without a bridge between).
fn flooded_swamp(rules: &Gcacw) -> (Hex, Vec<Hex>) {
    let map = rules.map();
    map.hexes()
        .filter(|&hx| map.terrain(hx) == Some(Terrain::ProvisionalSwamp))
        .filter(|&hx| !map.neighbors(hx).any(|(_, n)| map.hexside(hx, n).intersects(Hexside::ROAD_PIKE_RR)))
        .map(|hx| {
            let ways: Vec<Hex> = map
                .neighbors(hx)
                .map(|(_, n)| n)
                .filter(|&n| {
                    let side = map.hexside(hx, n);
                    matches!(map.terrain(n), Some(t) if !matches!(t, Terrain::Water | Terrain::Swamp | Terrain::ProvisionalSwamp))
                        && !side.intersects(Hexside::RIVER)
                        && !side.contains(Hexside::ALL_WATER)
                })
                .collect();
            (hx, ways)
        })
        .find(|(_, ways)| ways.len() >= 2)
        .expect("a provisional swamp off the roads with two ways out")
}

/// GCACW 12.0 Rain Effects: a unit in a provisional swamp off the roads gains a Fatigue Level, is
/// disorganized and moves out at once to an adjacent hex its owner picks; then the Random Events
/// Phase ends.
#[test]
fn rain_drives_units_out_of_provisional_swamps_gcacw_12_0() {
    let (rules, mut state) = game(5);
    let (swamp, ways) = flooded_swamp(&rules);
    let u = place(&rules, &mut state, "wagner", swamp, 6);
    state.units[u].fatigue = 1;
    event(&rules, &mut state, [2, 2]);
    assert_eq!(state.events.event, Some(Event::Rain));
    assert_eq!(state.units[u].fatigue, 2, "one Fatigue Level more");
    assert!(!state.units[u].organized, "disorganized");
    let Pending::Decide(d) = pending(&rules, &state) else { panic!("the owner picks the hex: {:?}", state.stage) };
    assert_eq!((d.kind.as_str(), d.side.as_str()), ("swamp-escape", "union"));
    let mut offered: Vec<String> = option_ids(&rules, &state);
    offered.sort();
    let mut expected: Vec<String> = ways.iter().map(|w| format!("hex:{w}")).collect();
    expected.sort();
    assert_eq!(offered, expected, "every dry neighbour, no swamp, no river without a bridge");
    assert!(choose(&rules, &mut state, "hex:9999").is_err(), "a hex not offered is refused");
    choose(&rules, &mut state, &expected[0]).expect("legal");
    assert_eq!(state.units[u].hex.map(|x| format!("hex:{x}")), Some(expected[0].clone()));
    assert!(!matches!(state.stage, Stage::SwampEscape { .. } | Stage::EventRoll { .. }), "{:?}", state.stage);
}

/// GCACW 12.0: with every way out held by the enemy, the unit is eliminated and the loss scores.
#[test]
fn rain_eliminates_a_unit_with_no_way_out_gcacw_12_0() {
    let (rules, mut state) = game(5);
    let (swamp, ways) = flooded_swamp(&rules);
    let u = place(&rules, &mut state, "wagner", swamp, 6);
    let rebels = ["brown", "bate-a", "cleburne", "loring", "walthall", "lowrey"];
    for (w, id) in ways.iter().zip(rebels) {
        place(&rules, &mut state, id, *w, 4);
    }
    assert!(ways.len() <= rebels.len());
    event(&rules, &mut state, [2, 2]);
    assert_eq!(state.units[u].hex, None, "eliminated");
    let lost = state.losses.iter().find(|l| l.unit == u).expect("a loss recorded");
    assert_eq!(lost.amount, 6);
    assert!(caisson_gcacw::victory::scoring_cause(lost.cause), "the loss scores");
}
