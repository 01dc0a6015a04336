//! Combat through the decision protocol, dice by hand: the HSN Combat Example from the attack
//! declaration to the advance (GCACW 7.1–7.6; digest T5).

use caisson_gcacw::registry::hsn;
use caisson_gcacw::state::{Stage, State};
use caisson_gcacw::{Gcacw, Settings, Side};
use caisson_hexmap::Hex;
use caisson_kernel::{DiceMode, Game, Rules, Setup};

fn h(s: &str) -> Hex {
    s.parse().expect("hex")
}

fn options(g: &Game<Gcacw>) -> Vec<String> {
    g.pending().map(|d| d.options.into_iter().map(|c| c.id).collect()).unwrap_or_default()
}

fn choose(g: &mut Game<Gcacw>, id: &str) {
    if let Err(e) = g.choose(id) {
        panic!("{id}: {e}; options {:?}; {:?}", options(g), g.pending().map(|d| d.prompt));
    }
}

/// Wagner (7) in the rough hex 4610, Brown (8) with Cheatham in 4611, Armstrong (2) in 4510, all
/// at fatigue 1 and organized; nobody else on the map; the Confederate player has the initiative.
fn example() -> Game<Gcacw> {
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-4", Settings::default()).expect("hsn-4");
    for u in &mut state.units {
        u.hex = None;
    }
    for l in &mut state.leaders {
        l.with = None;
    }
    let place = |s: &mut State, id: &str, hex: &str, mp: u8| {
        let u = rules.unit_by_id(id).expect(id);
        let unit = &mut s.units[u];
        (unit.hex, unit.manpower, unit.fatigue, unit.organized, unit.exhausted) = (Some(h(hex)), mp, 1, true, false);
        u
    };
    place(&mut state, "wagner", "4610", 7);
    let brown = place(&mut state, "brown", "4611", 8);
    place(&mut state, "armstrong", "4510", 2);
    let cheatham = rules.leader_by_id("cheatham").expect("cheatham");
    state.leaders[cheatham].with = Some(brown);
    state.automatic = vec![Side::Confederate];
    caisson_gcacw::sequence::begin_action_cycle(&rules, &mut state);
    Game::new(
        rules,
        state,
        Setup { system: "gcacw".into(), scenario: "hsn-4".into(), seed: 1, dice: DiceMode::Manual, options: vec![] },
    )
}

#[test]
fn the_combat_example_from_declaration_to_advance() {
    let mut g = example();
    let unit = |g: &Game<Gcacw>, id: &str| g.rules().unit_by_id(id).expect(id);
    choose(&mut g, "march:brown");
    choose(&mut g, "die:3"); // Movement Allowance 3 + 1 = 4
    choose(&mut g, "no-force-march");
    let attacks = options(&g);
    assert!(attacks.contains(&"attack:4610:hasty".to_string()), "{attacks:?}");
    choose(&mut g, "attack:4610:hasty");
    // The preview, before committing: every modifier with its rule, both columns, the odds.
    let preview = g.pending().expect("a decision").prompt;
    for part in ["ratio 1-1", "GCACW 7.4", "columns: defender 7–11, attacker 7–11", "+4: 1DR/fa"] {
        assert!(preview.contains(part), "`{part}` missing from the preview: {preview}");
    }
    choose(&mut g, "commit");
    choose(&mut g, "die:3"); // the artillery parity die: odd, so the rough-hex −1* is not used
    choose(&mut g, "die:4"); // Confederate
    choose(&mut g, "die:2"); // Union
    let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("the combat roll is logged");
    assert!(
        roll.result.contains("differential +4") && roll.result.contains("1DR") && roll.result.contains("fa"),
        "{}",
        roll.result
    );
    let wagner = unit(&g, "wagner");
    let w = &g.state().units[wagner];
    assert_eq!(
        (w.manpower, w.organized, w.fatigue, w.demoralized),
        (6, false, 4, 1),
        "1DR: −1, disorganized, +3 fatigue, Demoralize-1"
    );
    // The rout: 4 to 6 hexes, each hex at the best priority; Wagner goes four hexes away.
    for n in 1..=4 {
        let here = g.state().units[wagner].hex.expect("on the map");
        let step = options(&g)
            .into_iter()
            .filter_map(|o| o.strip_prefix("retreat:").map(|x| x.parse::<Hex>().expect("hex")))
            .find(|x| x.distance(h("4611")) > here.distance(h("4611")))
            .unwrap_or_else(|| panic!("step {n}: no hex farther from Brown in {:?}", options(&g)));
        choose(&mut g, &format!("retreat:{step}"));
    }
    assert!(options(&g).contains(&"stop".to_string()), "a rout may end after four hexes");
    choose(&mut g, "stop");
    let w = &g.state().units[wagner];
    assert_eq!(w.hex.map(|x| x.distance(h("4611"))), Some(5));
    assert_eq!(w.manpower, 6, "moving away in the open costs nothing more");
    // The attacker: f (+1 fatigue, the march ends) and a (advance).
    let brown = unit(&g, "brown");
    assert_eq!(g.state().units[brown].fatigue, 3, "1, +1 for the march, +1 for f");
    assert!(g.state().units[brown].organized);
    choose(&mut g, "advance:brown");
    assert_eq!(g.state().units[brown].hex, Some(h("4610")));
    let cheatham = g.rules().leader_by_id("cheatham").expect("cheatham");
    assert_eq!(g.rules().leader_hex(g.state(), cheatham), Some(h("4610")), "Cheatham advances with Brown");
    assert!(!matches!(g.state().stage, Stage::Moving { .. } | Stage::Battle { .. }), "the f result ended the march");
    let losses: Vec<_> = g.state().losses.iter().map(|l| (l.unit, l.amount)).collect();
    assert_eq!(losses, vec![(wagner, 1)], "the ledger records the combat loss");
}

/// The view's `combat` (docs/web-api.md) is the Confirm step's preview as a table, read from the
/// assessment the prompt shows: same totals, ratio, columns, modifiers and rows; `null` at every
/// other decision.
#[test]
fn the_combat_table_in_the_view_is_the_prompt_s_preview() {
    let mut g = example();
    let combat = |g: &Game<Gcacw>| g.rules().view(g.state(), None)["combat"].clone();
    assert!(combat(&g).is_null(), "no combat at the choice of action");
    choose(&mut g, "march:brown");
    choose(&mut g, "die:3");
    choose(&mut g, "no-force-march");
    assert!(combat(&g).is_null(), "no combat while the attack is only offered");
    choose(&mut g, "attack:4610:hasty");
    let prompt = g.pending().expect("a decision").prompt;
    assert_eq!(g.pending().map(|d| d.kind), Some("attack-confirm".to_string()));
    let c = combat(&g);
    let s = |v: &serde_json::Value| v.as_str().unwrap_or_else(|| panic!("a string: {v}")).to_string();
    assert_eq!(s(&c["ratio"]), "1-1");
    assert_eq!((s(&c["columns"]["defender"]), s(&c["columns"]["attacker"])), ("7–11".into(), "7–11".into()));
    assert_eq!(s(&c["hex"]), "4610");
    for part in [
        format!("ratio {}", s(&c["ratio"])),
        format!("Combat {} against {}", s(&c["attacker"]["combat"]), s(&c["defender"]["combat"])),
        format!("columns: defender {}, attacker {}", s(&c["columns"]["defender"]), s(&c["columns"]["attacker"])),
        format!("artillery: {}", s(&c["artillery"]["label"])),
    ] {
        assert!(prompt.contains(&part), "`{part}` missing from the prompt: {prompt}");
    }
    for side in ["attacker", "defender"] {
        let mods = c[side]["modifiers"].as_array().expect("modifiers");
        let mut total = 0;
        for m in mods {
            let value = m["value"].as_i64().expect("value");
            total += value;
            let text = format!("{value:+} {} [{}]", s(&m["label"]), s(&m["rule"]));
            assert!(prompt.contains(&text), "{side} modifier `{text}` missing from the prompt: {prompt}");
        }
        assert_eq!(c[side]["total"].as_i64(), Some(total), "{side} total");
    }
    assert!(!c["attacker"]["modifiers"].as_array().expect("modifiers").is_empty(), "a hasty attack has modifiers");
    // The rough hex's −1* artillery modifier needs the parity die: 36 die pairs × 2 parities.
    let rows = c["rows"].as_array().expect("rows");
    assert!(!rows.is_empty());
    let n = |v: &serde_json::Value| v.as_u64().unwrap_or_else(|| panic!("a number: {v}"));
    let ways: u64 = rows.iter().map(|r| n(&r["ways"])).sum();
    assert!(rows.iter().all(|r| n(&r["out_of"]) == 72), "{rows:?}");
    assert_eq!(ways, 72, "the rows' chances sum to 1");
    let chance: f64 = rows.iter().map(|r| r["chance"].as_f64().expect("chance")).sum();
    assert!((chance - 1.0).abs() < 1e-9, "{chance}");
    let most = rows.iter().map(|r| n(&r["ways"])).max().expect("a row");
    for r in rows {
        let text = format!(
            "{:+}: {}/{} {}/{}",
            r["row"].as_i64().expect("row"),
            s(&r["defender"]["result"]),
            s(&r["attacker"]["result"]),
            n(&r["ways"]),
            n(&r["out_of"])
        );
        assert!(prompt.contains(&text), "row `{text}` missing from the prompt: {prompt}");
        assert_eq!(r["most_likely"].as_bool(), Some(n(&r["ways"]) == most), "{r}");
    }
    let plus4 = rows.iter().find(|r| r["row"] == 4).expect("row +4");
    assert_eq!((s(&plus4["defender"]["result"]), n(&plus4["defender"]["loss"])), ("1DR".into(), 1));
    assert_eq!((s(&plus4["attacker"]["result"]), n(&plus4["attacker"]["loss"])), ("fa".into(), 0));
    for side in ["defender", "attacker"] {
        let sum: f64 =
            rows.iter().map(|r| r["chance"].as_f64().expect("chance") * r[side]["loss"].as_f64().expect("loss")).sum();
        let e = c["expected_loss"][side].as_f64().expect("expected loss");
        assert!((e - sum).abs() < 1e-9, "{side}: {e} against {sum}");
    }
    assert!(c["expected_loss"]["defender"].as_f64() > Some(0.0), "a 1-1 attack can cost the defender");
    choose(&mut g, "commit");
    assert!(combat(&g).is_null(), "no table once the attack is committed");
    for die in ["die:3", "die:4", "die:2"] {
        choose(&mut g, die);
    }
    assert!(g.pending().is_some_and(|d| d.kind != "attack-confirm"));
    assert!(combat(&g).is_null(), "no table at the rout");
}

/// GCACW 7.1 assault example (digest T3, Palmer's assault, here with Cheatham, Command 5): two
/// divisions are chosen, both gain a fatigue level; a command roll of 5 gives Assault Number 0,
/// so exactly one of them attacks, with the assault +1.
#[test]
fn assault_number_gcacw_7_1() {
    let mut g = example();
    let cleburne = g.rules().unit_by_id("cleburne").expect("cleburne");
    let brown = g.rules().unit_by_id("brown").expect("brown");
    let mut state = g.state().clone();
    state.units[cleburne].hex = Some(h("4611"));
    state.units[cleburne].manpower = 7;
    state.units[cleburne].fatigue = 1;
    let rules = g.rules().clone();
    g = Game::new(rules, state, g.setup().clone());
    choose(&mut g, "assault:cheatham");
    choose(&mut g, "add:brown");
    choose(&mut g, "add:cleburne");
    choose(&mut g, "done");
    assert_eq!((g.state().units[brown].fatigue, g.state().units[cleburne].fatigue), (2, 2), "every unit chosen pays");
    choose(&mut g, "target:4610");
    choose(&mut g, "die:5");
    let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("logged");
    assert!(roll.result.contains("Assault Number 0"), "{}", roll.result);
    choose(&mut g, "pick:brown");
    let Stage::Battle { battle } = &g.state().stage else { panic!("a combat: {:?}", g.state().stage) };
    assert_eq!(battle.attackers, vec![brown]);
    let a = battle.assess(g.rules(), g.state());
    assert!(
        a.attacker_modifiers.iter().any(|m| m.label.to_lowercase().contains("assault") && m.value == 1),
        "{:?}",
        a.attacker_modifiers
    );
    // A roll of 6 would have ended it at once.
    let mut g = example();
    choose(&mut g, "assault:cheatham");
    choose(&mut g, "add:brown");
    choose(&mut g, "done");
    choose(&mut g, "target:4610");
    choose(&mut g, "die:6");
    assert!(!matches!(g.state().stage, Stage::Battle { .. }), "an unmodified 6: no assault");
}

/// GCACW 7.7 (digest T16): Wagner begins a march next to Armstrong's cavalry; Armstrong retreats
/// at once: half the modified roll comes off Wagner's allowance, the cavalry retreats four to six
/// hexes, then gains a fatigue level and is disorganized.
#[test]
fn cavalry_retreat_gcacw_7_7() {
    let mut g = example();
    let mut state = g.state().clone();
    state.automatic = vec![Side::Union];
    state.stage = Stage::Over;
    let rules = g.rules().clone();
    caisson_gcacw::sequence::next_action_phase(&rules, &mut state);
    g = Game::new(rules, state, g.setup().clone());
    choose(&mut g, "march:wagner");
    choose(&mut g, "die:4");
    let offer = options(&g);
    assert!(offer.contains(&"cavalry-retreat:4510".to_string()), "{offer:?}");
    choose(&mut g, "cavalry-retreat:4510");
    let req = g.pending().expect("the roll").prompt;
    choose(&mut g, "die:5");
    let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("logged");
    let cut = roll.total / 2;
    assert!(roll.result.contains(&format!("falls by {cut}")), "{} ({req})", roll.result);
    let armstrong = g.rules().unit_by_id("armstrong").expect("armstrong");
    let mut hexes = 0;
    while options(&g).iter().any(|o| o.starts_with("retreat:")) && hexes < 6 {
        let here = g.state().units[armstrong].hex.expect("on the map");
        let next = options(&g)
            .into_iter()
            .filter_map(|o| o.strip_prefix("retreat:").map(|x| x.parse::<Hex>().expect("hex")))
            .max_by_key(|x| x.distance(h("4610")))
            .expect("a hex");
        assert!(next.distance(h("4610")) >= here.distance(h("4610")));
        choose(&mut g, &format!("retreat:{next}"));
        hexes += 1;
        if hexes == 4 {
            choose(&mut g, "stop");
            break;
        }
    }
    let a = &g.state().units[armstrong];
    assert_eq!((a.fatigue, a.organized, a.manpower), (2, false, 2), "fatigue +1, disorganized, no loss on a 5");
    assert_eq!(a.hex.map(|x| x.distance(h("4610"))), Some(5));
    let Stage::ForceMarch { march } = &g.state().stage else { panic!("Wagner's march goes on: {:?}", g.state().stage) };
    assert_eq!(march.left.to_string(), (4 - cut).to_string());
}

/// GCACW 7.8: a marching unit refuses its flanks for 1 MP and its march ends; the marker stays
/// with the hex while units hold it, and goes when the hex empties.
#[test]
fn refusing_flanks_gcacw_7_8() {
    let mut g = example();
    let mut state = g.state().clone();
    state.automatic = vec![Side::Union];
    let rules = g.rules().clone();
    caisson_gcacw::sequence::next_action_phase(&rules, &mut state);
    g = Game::new(rules, state, g.setup().clone());
    choose(&mut g, "march:wagner");
    choose(&mut g, "die:4");
    choose(&mut g, "stand"); // Armstrong stays
    choose(&mut g, "no-force-march");
    assert!(options(&g).contains(&"refuse-flanks".to_string()), "{:?}", options(&g));
    choose(&mut g, "refuse-flanks");
    assert!(g.state().flanks_refused.contains(&h("4610")));
    assert!(!matches!(g.state().stage, Stage::Moving { .. }), "refusing flanks ends the march");
    let (rules, mut state) = (g.rules().clone(), g.state().clone());
    let wagner = rules.unit_by_id("wagner").expect("wagner");
    rules.relocate(&mut state, wagner, h("4709"));
    assert!(state.flanks_refused.is_empty(), "the marker never leaves with a unit");
}

/// GCACW 7.1 grand assault (digest T4): with the army leader within the active leader's radius, a
/// grand assault roll of 1 gives Command − 1; it must take place, units next to the target join
/// and each gains a fatigue level; all attack together.
#[test]
fn grand_assault_gcacw_7_1() {
    let g = example();
    let (rules, mut state) = (g.rules().clone(), g.state().clone());
    let cleburne = rules.unit_by_id("cleburne").expect("cleburne");
    let brown = rules.unit_by_id("brown").expect("brown");
    state.units[cleburne].hex = Some(h("4711"));
    state.units[cleburne].manpower = 7;
    state.units[cleburne].fatigue = 1;
    let hood = rules.leader_by_id("hood").expect("hood");
    state.leaders[hood].with = Some(cleburne);
    let mut g = Game::new(rules, state, g.setup().clone());
    choose(&mut g, "assault:cheatham");
    choose(&mut g, "add:brown");
    choose(&mut g, "done");
    choose(&mut g, "target:4610");
    choose(&mut g, "die:2"); // Assault Number 5 − 2 = 3: Brown attacks
    assert!(options(&g).contains(&"grand:hood".to_string()), "{:?}", options(&g));
    choose(&mut g, "grand:hood");
    choose(&mut g, "die:1");
    let roll = g.log().iter().rev().find_map(|e| e.roll.clone()).expect("logged");
    let command = i32::from(g.rules().leader_counter(g.state(), hood).command_value.expect("command"));
    assert!(roll.result.contains(&format!("Grand Assault Number {}", command - 1)), "{}", roll.result);
    choose(&mut g, "join:cleburne");
    choose(&mut g, "done");
    assert_eq!(g.state().units[cleburne].fatigue, 2);
    let Stage::Battle { battle } = &g.state().stage else { panic!("a combat") };
    assert_eq!(battle.attackers, vec![brown, cleburne]);
}

/// Stanley (with Wagner in 4610) assaults Armstrong's cavalry in 4510 with Wagner and the units
/// `also` (placed in 4610 too); Armstrong retreats before the command roll, as far from 4610 as
/// it can, and a command roll of 1 lets the assault go on: the game waits at the advance.
fn assault_after_a_cavalry_retreat(also: &[&str]) -> Game<Gcacw> {
    let g = example();
    let (rules, mut state) = (g.rules().clone(), g.state().clone());
    let wagner = rules.unit_by_id("wagner").expect("wagner");
    let brown = rules.unit_by_id("brown").expect("brown");
    state.units[brown].hex = Some(h("4613"));
    for id in also {
        let u = rules.unit_by_id(id).expect(id);
        (state.units[u].hex, state.units[u].manpower, state.units[u].fatigue) = (Some(h("4610")), 6, 1);
    }
    let stanley = rules.leader_by_id("stanley").expect("stanley");
    state.leaders[stanley].with = Some(wagner);
    state.automatic = vec![Side::Union];
    caisson_gcacw::sequence::next_action_phase(&rules, &mut state);
    let mut g = Game::new(rules, state, g.setup().clone());
    choose(&mut g, "assault:stanley");
    for id in std::iter::once(&"wagner").chain(also) {
        choose(&mut g, &format!("add:{id}"));
    }
    choose(&mut g, "done");
    choose(&mut g, "target:4510");
    assert!(options(&g).contains(&"cavalry-retreat:4510".to_string()), "{:?}", options(&g));
    choose(&mut g, "cavalry-retreat:4510");
    choose(&mut g, "die:3");
    for _ in 0..4 {
        let here = g.state().units[g.rules().unit_by_id("armstrong").expect("a")].hex.expect("on map");
        let next = options(&g)
            .into_iter()
            .filter_map(|o| o.strip_prefix("retreat:").map(|x| x.parse::<Hex>().expect("hex")))
            .max_by_key(|x| x.distance(h("4610")))
            .unwrap_or_else(|| panic!("from {here}: {:?}", options(&g)));
        choose(&mut g, &format!("retreat:{next}"));
    }
    choose(&mut g, "stop");
    choose(&mut g, "die:1"); // the command roll
    g
}

/// GCACW 7.7: cavalry assaulted by a non-cavalry leader may retreat before the command roll; if
/// the hex is then empty and the roll succeeds, the assaulting units may simply advance.
#[test]
fn cavalry_retreat_before_an_assault_gcacw_7_7() {
    let mut g = assault_after_a_cavalry_retreat(&[]);
    let wagner = g.rules().unit_by_id("wagner").expect("wagner");
    assert!(options(&g).contains(&"advance:wagner".to_string()), "{:?}", options(&g));
    choose(&mut g, "advance:wagner");
    assert_eq!(g.state().units[wagner].hex, Some(h("4510")));
}

/// GCACW 6.3 (exception) and 7.6: before the advance, a leader may attach to another subordinate
/// unit of his hex and advance with it, once; the unit he leaves behind stays.
#[test]
fn leader_reattaches_before_the_advance_gcacw_7_6() {
    let mut g = assault_after_a_cavalry_retreat(&["kimball"]);
    let (wagner, stanley) = (g.rules().unit_by_id("wagner").expect("w"), g.rules().leader_by_id("stanley").expect("s"));
    assert!(options(&g).contains(&"attach:stanley:kimball".to_string()), "{:?}", options(&g));
    choose(&mut g, "attach:stanley:kimball");
    assert!(!options(&g).iter().any(|o| o.starts_with("attach:stanley")), "once per advance: {:?}", options(&g));
    choose(&mut g, "advance:kimball");
    assert_eq!(g.rules().leader_hex(g.state(), stanley), Some(h("4510")), "Stanley advanced with Kimball");
    assert_eq!(g.state().units[wagner].hex, Some(h("4610")));
}

/// HSN Sc 2 Union Unit Restrictions (b): 91 IN and 123 IN may not activate before Turn 4, unless
/// a Confederate unit attacks either of them first, which frees both.
#[test]
fn an_attack_on_91_in_frees_both_held_regiments_hsn_sc_2() {
    let (rules, mut state) = Gcacw::new(hsn().expect("data"), "hsn-2", Settings::default()).expect("hsn-2");
    for u in &mut state.units {
        u.hex = None;
    }
    for l in &mut state.leaders {
        l.with = None;
    }
    let place = |s: &mut State, id: &str, hex: &str| {
        let u = rules.unit_by_id(id).expect(id);
        let unit = &mut s.units[u];
        (unit.hex, unit.fatigue, unit.organized, unit.exhausted, unit.entrenchment) =
            (Some(h(hex)), 0, true, false, None);
    };
    place(&mut state, "91-in", "4610");
    place(&mut state, "armstrong", "4611");
    state.turn = 2;
    state.automatic = vec![Side::Confederate];
    caisson_gcacw::sequence::begin_action_cycle(&rules, &mut state);
    let cat = rules.catalog();
    let (in91, in123) = (cat.index("91-in").expect("91 IN"), cat.index("123-in").expect("123 IN"));
    assert!(rules.restricted(&state, in91) && rules.restricted(&state, in123), "held on Turn 2");
    let mut g = Game::new(
        rules,
        state,
        Setup { system: "gcacw".into(), scenario: "hsn-2".into(), seed: 1, dice: DiceMode::Manual, options: vec![] },
    );
    choose(&mut g, "die:1"); // the Arrival Table: 1 − 7, nobody arrives
    choose(&mut g, "march:armstrong");
    choose(&mut g, "die:3");
    choose(&mut g, "die:3");
    choose(&mut g, "no-force-march");
    let attack = options(&g).into_iter().find(|o| o.starts_with("attack:4610")).expect("an attack on 4610");
    choose(&mut g, &attack);
    choose(&mut g, "commit");
    while g.pending().is_some_and(|d| d.kind == "roll") {
        assert!(g.rules().restricted(g.state(), in91), "no release before the dice");
        choose(&mut g, "die:3");
    }
    let (rules, state) = (g.rules(), g.state());
    assert!(!rules.restricted(state, in91) && !rules.restricted(state, in123), "the attack frees both");
}
