//! What players see: the view as JSON for front ends, and a plain-text summary for terminals.

use std::fmt::Write;

use serde_json::json;

use crate::rules::Gcacw;
use crate::state::State;
use crate::Side;

/// The whole board as JSON (GCACW hides nothing in the Basic Game).
#[must_use]
pub fn view(rules: &Gcacw, state: &State) -> serde_json::Value {
    let units: Vec<_> = (0..state.units.len())
        .map(|u| {
            let c = rules.unit_counter(state, u);
            let s = &state.units[u];
            json!({
                "id": c.id, "name": c.name, "side": c.side, "type": c.ty, "hex": s.hex,
                "manpower": s.manpower, "combat": rules.combat_value(state, u).to_string(),
                "organized": s.organized, "exhausted": s.exhausted, "fatigue": s.fatigue,
                "demoralized": s.demoralized, "entrenchment": s.entrenchment, "eliminated": s.eliminated,
                "exited": state.campaign.exited.contains(&u),
                "tactical": crate::substitute::tactical(rules, state, u),
                "artillery": crate::substitute::artillery(rules, state, u),
                "command": crate::substitute::command(rules, state, u),
                "mount": s.mount.marker(), "off_map": crate::mounts::off_map(state, u),
            })
        })
        .collect();
    let leaders: Vec<_> = (0..state.leaders.len())
        .map(|l| {
            let c = rules.leader_counter(state, l);
            json!({
                "id": c.id, "name": c.name, "side": c.side, "level": c.ty,
                "with": state.leaders[l].with.map(|u| rules.unit_id(state, u).to_string()),
                "hex": rules.leader_hex(state, l), "tactical": c.tactical, "command": c.command_value,
            })
        })
        .collect();
    json!({
        "scenario": rules.scenario().id, "turn": state.turn, "turns": rules.scenario().turns,
        "stage": state.stage, "rain": state.rain, "units": units, "leaders": leaders,
        "stations": state.stations.iter().map(|(h, m)| json!({"hex": h, "mark": m})).collect::<Vec<_>>(),
        "bridges": state.bridges,
        "blockhouses": crate::blockhouse::standing(rules, state).into_iter()
            .map(|(h, name)| json!({"hex": h, "name": name})).collect::<Vec<_>>(),
        "score": crate::victory::score(rules, state),
        "turn_track": crate::turn_track::track(rules, state),
        "campaign": campaign(rules, state),
        "combat": crate::battle::combat_view(rules, state),
    })
}

/// The Advanced Game's markers for the turn track (HSN-A 2.2, 3.0, 4.0): Army Initiative, the
/// Winter Weather Start and Last Turn of Winter markers, and this turn's random event with the
/// effects in force. `null` parts where the scenario does not use them.
#[must_use]
pub fn campaign(rules: &Gcacw, state: &State) -> serde_json::Value {
    let ev = &state.events;
    json!({
        "army_initiative": crate::events::army_initiative_start(rules).map(|_| state.campaign.army_initiative),
        "winter": state.campaign.winter.map(|w| json!({"start": w.start, "last": w.last})),
        "winter_on": crate::winter::on(state),
        "event": ev.event.map(|e| json!({"id": e, "name": e.name()})),
        "effects": crate::turn_track::effects(state),
        "no_grand_assaults_through": ev.no_grand_assaults_through,
    })
}

/// A plain-text status screen: turn, phase, and each side's roster.
#[must_use]
pub fn summary(rules: &Gcacw, state: &State) -> String {
    let sc = rules.scenario();
    let mut out = String::new();
    let weather = if state.rain { "rain" } else { "clear" };
    let _ = writeln!(out, "{} {} — turn {} of {} ({weather})", sc.id, sc.name, state.turn, sc.turns);
    if crate::events::army_initiative_start(rules).is_some() {
        let _ = writeln!(out, "Army Initiative: {}", crate::events::level_name(state.campaign.army_initiative));
    }
    if let Some(w) = state.campaign.winter {
        let now = if crate::winter::on(state) { "in effect" } else { "not in effect" };
        let _ = writeln!(out, "Winter: started Turn {}, Last Turn of Winter {} ({now})", w.start, w.last);
    }
    if let Some(e) = state.events.event {
        let fx = crate::turn_track::effects(state);
        let fx = if fx.is_empty() { String::new() } else { format!(" — {}", fx.join("; ")) };
        let _ = writeln!(out, "Random event this turn: {}{fx}", e.name());
    }
    for side in Side::BOTH {
        let _ = writeln!(out, "{side}:");
        for u in 0..state.units.len() {
            if rules.unit_side(state, u) != side {
                continue;
            }
            let s = &state.units[u];
            let mut flags = Vec::new();
            if let Some(m) = s.mount.marker() {
                flags.push(m.to_string());
            }
            let hex = match s.hex {
                Some(h) => rules.map().label(h),
                None if crate::mounts::off_map(state, u) => "off map (remounts)".to_string(),
                None => continue,
            };
            if !s.organized {
                flags.push(format!("disorganized, combat {}", rules.combat_value(state, u)));
            }
            if s.exhausted {
                flags.push("exhausted".to_string());
            }
            if s.demoralized > 0 {
                flags.push(format!("D{}", s.demoralized));
            }
            if let Some(e) = s.entrenchment {
                flags.push(e.name().to_string());
            }
            if let Some(d) = state.campaign.substitutes.detached.get(&u) {
                flags.push(format!("detached from {}, command {}", d.parent, d.command));
            }
            let leaders: Vec<String> = (0..state.leaders.len())
                .filter(|&l| state.leaders[l].with == Some(u))
                .map(|l| rules.leader_counter(state, l).name.clone())
                .collect();
            if !leaders.is_empty() {
                flags.push(format!("with {}", leaders.join(", ")));
            }
            let flags = if flags.is_empty() { String::new() } else { format!(" [{}]", flags.join("; ")) };
            let _ = writeln!(
                out,
                "  {:<14} {:<22} manpower {:>2}  fatigue {}{flags}",
                rules.unit_name(state, u),
                hex,
                s.manpower,
                s.fatigue
            );
        }
    }
    for (h, name) in crate::blockhouse::standing(rules, state) {
        let _ = writeln!(out, "{name}: {}", rules.map().label(h));
    }
    for (h, m) in &state.stations {
        let _ = writeln!(out, "Station {}: {m:?}", rules.map().label(*h));
    }
    let exited: Vec<String> = state.campaign.exited.iter().map(|&u| rules.unit_name(state, u)).collect();
    if !exited.is_empty() {
        let _ = writeln!(out, "Left the map (HSN-A 14.0): {}", exited.join(", "));
    }
    let score = crate::victory::score(rules, state);
    let _ = writeln!(out, "{} VP as things stand: {} ({})", score.side, score.total, score.level);
    out
}
