//! The Liddell-bot (Grand Havoc: Perryville EX 16.0d): the Confederate side of a Blind Swords
//! game played by the order in force, as the solo variant asks. The rules set that order (the
//! Command Confusion roll of `caisson_blindswords::solo`); this module only plays within it:
//! - **Attack**: each unit heads for the nearest Union unit (or, with none on the map, the
//!   nearest objective hex), artillery fires at the best target, Close Combat is taken when
//!   offered;
//! - **Defend**: units hold an objective hex or head for the nearest one, never stepping nearer
//!   the enemy once within three hexes of it, preferring higher and covered ground; fire is taken;
//!   Close Combat is declined;
//! - **Maneuver** and **Regroup**: units close up on the objectives, as under Defend;
//! - a unit more than two hexes from every other unit of its brigade rejoins it first (the 7th
//!   Arkansas on turn 1, EX 16.0d);
//! - an event is played at the first opportunity (EX 16.0d): any decision about an event takes
//!   its first option that is not a pass.
//!
//! For a decision kind it does not know it takes a fire, a play or (under Attack) a close
//! combat when one is offered, and otherwise picks at random with its seed, so it never stalls.
//!
//! **Hidden information.** [`choose`] sees only the rules' static data (map, scenario, catalog:
//! [`BlindSwords`] holds no game state), the deciding side's view (`view(Some(side))`, which
//! shows the other side's held chits and Key Chit only as counts) and the decision. It is never
//! handed the game state, so it cannot read the Union's secrets or the cup.

use caisson_blindswords::BlindSwords;
use caisson_hexmap::{Hex, TacticalTerrain};
use caisson_kernel::{random_choice, Choice, Decision, Dice};
use serde_json::Value;

/// How far (hexes) from the enemy a defending unit stops advancing.
const DEFEND_DISTANCE: u16 = 3;
/// How far (hexes) from its brigade a unit may stray before it rejoins.
const REJOIN_DISTANCE: u16 = 2;

/// A unit as the view shows it.
#[derive(Clone, Debug)]
struct Unit {
    id: String,
    name: String,
    side: String,
    brigade: Option<String>,
    hex: Option<Hex>,
    cr: u64,
}

/// What the bot reads of the view.
struct Board<'r> {
    rules: &'r BlindSwords,
    units: Vec<Unit>,
    /// Each brigade's order this turn, by id (`attack`, `defend`, ...).
    orders: Vec<(String, String)>,
}

impl<'r> Board<'r> {
    fn new(rules: &'r BlindSwords, view: &Value) -> Board<'r> {
        let units = view["units"]
            .as_array()
            .map(|us| {
                us.iter()
                    .map(|u| Unit {
                        id: u["id"].as_str().unwrap_or_default().to_string(),
                        name: u["name"].as_str().unwrap_or_default().to_string(),
                        side: u["side"].as_str().unwrap_or_default().to_string(),
                        brigade: u["brigade"].as_str().map(str::to_string),
                        hex: u["hex"].as_str().and_then(|h| h.parse().ok()),
                        cr: u["cr"].as_u64().unwrap_or(0),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let orders = view["brigades"]
            .as_array()
            .map(|bs| {
                bs.iter()
                    .filter_map(|b| Some((b["id"].as_str()?.to_string(), b["order"].as_str()?.to_lowercase())))
                    .collect()
            })
            .unwrap_or_default();
        Board { rules, units, orders }
    }

    fn distance(&self, a: Hex, b: Hex) -> u16 {
        self.rules.data().map.distance(a, b)
    }

    /// The hexes of the units of the other side than `side`.
    fn enemy_hexes(&self, side: &str) -> Vec<Hex> {
        self.units.iter().filter(|u| u.side != side).filter_map(|u| u.hex).collect()
    }

    fn nearest(&self, from: Hex, hexes: &[Hex]) -> Option<u16> {
        hexes.iter().map(|h| self.distance(from, *h)).min()
    }

    /// The order of a unit's brigade this turn, lower case (`""` when none).
    fn order_of(&self, unit: &Unit) -> &str {
        let Some(b) = &unit.brigade else { return "" };
        self.orders.iter().find(|(id, _)| id == b).map_or("", |(_, o)| o.as_str())
    }

    /// Cover of a hex for a defender: its level, plus one for woods, town or a building.
    fn cover(&self, hex: Hex) -> u16 {
        let map = &self.rules.data().map;
        let terrain = matches!(
            map.tactical(hex),
            Some(TacticalTerrain::Woods | TacticalTerrain::Town | TacticalTerrain::Building)
        );
        u16::from(map.elevation(hex).unwrap_or(0)) + u16::from(terrain)
    }
}

/// The option the Liddell-bot picks in `decision`, from the static rules and the deciding side's
/// `view` only (see the module notes); `seed` drives the random fallback.
#[must_use]
pub fn choose(rules: &BlindSwords, view: &Value, decision: &Decision, seed: u64) -> String {
    let board = Board::new(rules, view);
    let picked = match decision.kind.as_str() {
        "move" => step(&board, decision),
        "move-unit" => first_with(decision, "unit:").or_else(|| id(decision, "done")),
        "artillery" => best_fire(&board, decision).or_else(|| id(decision, "pass")),
        "fire-lead" => strongest(&board, decision),
        "battlefield-chaos" => chaos(&board, decision),
        "wayward-move" => wayward(&board, decision),
        "order" => id(decision, "order:attack"),
        kind => unknown(&board, kind, decision),
    };
    picked.unwrap_or_else(|| random_choice(decision, &mut Dice::new(seed)).to_string())
}

fn id(decision: &Decision, id: &str) -> Option<String> {
    decision.options.iter().find(|c| c.id == id).map(|c| c.id.clone())
}

fn first_with(decision: &Decision, prefix: &str) -> Option<String> {
    decision.options.iter().find(|c| c.id.starts_with(prefix)).map(|c| c.id.clone())
}

/// Whether an option declines: a pass, keeping a chit, moving nothing.
fn declines(c: &Choice) -> bool {
    let id = c.id.as_str();
    matches!(id, "pass" | "none" | "hold" | "keep" | "done" | "no" | "decline" | "stop") || id.starts_with("keep:")
}

/// A decision kind written after this bot: events are played at once (EX 16.0d), fire is
/// taken, Close Combat only under an Attack order (Defend may not close, SR 8.3).
fn unknown(board: &Board, kind: &str, decision: &Decision) -> Option<String> {
    let act = || decision.options.iter().find(|c| !declines(c)).map(|c| c.id.clone());
    let decline = || decision.options.iter().find(|c| declines(c)).map(|c| c.id.clone());
    if kind.contains("event") || kind.contains("fire") {
        return act();
    }
    if kind.contains("close") || kind.contains("assault") {
        let attacking = board.units.iter().any(|u| u.side == decision.side && board.order_of(u) == "attack");
        return if attacking { act() } else { decline().or_else(act) };
    }
    None
}

/// The unit a "move" decision is about and where it stands, read from its stop option
/// ("NAME stops in HEX" or "NAME stays off the map").
fn moving<'b>(board: &'b Board, decision: &Decision) -> Option<(&'b Unit, Option<Hex>)> {
    let stop = decision.options.iter().find(|c| c.id == "stop")?;
    let (name, here) = match stop.label.rsplit_once(" stops in ") {
        Some((name, hex)) => (name, hex.parse().ok()),
        None => (stop.label.strip_suffix(" stays off the map")?, None),
    };
    let unit = board.units.iter().find(|u| u.name == name && u.side == decision.side)?;
    Some((unit, here))
}

/// One hex of a unit's move: the best next hex by the order's goal, or stop when none improves.
fn step(board: &Board, decision: &Decision) -> Option<String> {
    let (unit, here) = moving(board, decision)?;
    let hexes: Vec<Hex> =
        decision.options.iter().filter_map(|c| c.id.strip_prefix("hex:")).filter_map(|h| h.parse().ok()).collect();
    let enemies = board.enemy_hexes(&unit.side);
    let mates: Vec<Hex> = board
        .units
        .iter()
        .filter(|u| u.id != unit.id && u.brigade.is_some() && u.brigade == unit.brigade)
        .filter_map(|u| u.hex)
        .collect();
    let objectives = board.rules.victory_hexes().to_vec();
    let straying = here.is_some_and(|h| board.nearest(h, &mates).is_some_and(|d| d > REJOIN_DISTANCE));
    let attack = board.order_of(unit) == "attack";
    // Lower is better: (distance to the goal, less cover).
    let score = |h: Hex| -> Option<(u16, i32)> {
        let cover = -i32::from(board.cover(h));
        if straying {
            return Some((board.nearest(h, &mates)?, cover));
        }
        if attack {
            let goal = if enemies.is_empty() { &objectives } else { &enemies };
            return Some((board.nearest(h, goal)?, cover));
        }
        // Defend, Maneuver, Regroup: no step nearer the enemy once close to it.
        let near = board.nearest(h, &enemies).unwrap_or(u16::MAX);
        let before = here.and_then(|f| board.nearest(f, &enemies)).unwrap_or(u16::MAX);
        if near <= DEFEND_DISTANCE && near < before {
            return None;
        }
        Some((board.nearest(h, &objectives)?, cover))
    };
    let current = here.and_then(score);
    let best = hexes.iter().filter_map(|h| score(*h).map(|s| (s, *h))).min();
    match (best, current) {
        (Some((s, h)), Some(c)) if s < c => Some(format!("hex:{h}")),
        (Some((_, h)), None) if here.is_none() => Some(format!("hex:{h}")),
        _ => id(decision, "stop"),
    }
}

/// The CRT column a fire preview ends on ("... → 6-7"), as a number ("C" is a half).
fn column(label: &str) -> f64 {
    let Some((_, end)) = label.rsplit_once("→ ") else { return 0.0 };
    if end.starts_with('C') {
        return 0.5;
    }
    end.split(|c: char| !c.is_ascii_digit()).next().and_then(|n| n.parse().ok()).unwrap_or(0.0)
}

/// The artillery fire on the highest CRT column, nearer targets first on a tie.
fn best_fire(board: &Board, decision: &Decision) -> Option<String> {
    let range = |c: &Choice| -> u16 {
        let Some((unit, target)) = c.id.strip_prefix("fire:").and_then(|a| a.split_once('@')) else { return 99 };
        let from = board.units.iter().find(|u| u.id == unit).and_then(|u| u.hex);
        match (from, target.parse::<Hex>()) {
            (Some(f), Ok(t)) => board.distance(f, t),
            _ => 99,
        }
    };
    decision
        .options
        .iter()
        .filter(|c| c.id.starts_with("fire:"))
        .max_by(|a, b| column(&a.label).total_cmp(&column(&b.label)).then(range(b).cmp(&range(a))))
        .map(|c| c.id.clone())
}

/// The Lead Unit of a fired-on stack: the highest Cohesion Rating (options `unit:i`, labelled
/// with the unit's id).
fn strongest(board: &Board, decision: &Decision) -> Option<String> {
    decision
        .options
        .iter()
        .max_by_key(|c| board.units.iter().find(|u| u.id == c.label).map_or(0, |u| u.cr))
        .map(|c| c.id.clone())
}

/// Battlefield Chaos on the enemy: the enemy hex nearest an objective.
fn chaos(board: &Board, decision: &Decision) -> Option<String> {
    let objectives = board.rules.victory_hexes();
    decision
        .options
        .iter()
        .filter_map(|c| Some((board.nearest(c.id.strip_prefix("hex:")?.parse().ok()?, objectives)?, c)))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.id.clone())
}

/// A Wayward Move of an enemy unit: the one that takes it farthest from the objectives, or none
/// when no move does.
fn wayward(board: &Board, decision: &Decision) -> Option<String> {
    let objectives = board.rules.victory_hexes();
    let gain = |c: &Choice| -> Option<i32> {
        let (unit, to) = c.id.strip_prefix("wayward:")?.split_once(':')?;
        let u = board.units.iter().find(|u| u.id == unit)?;
        if u.side == decision.side {
            return None;
        }
        let to: Hex = to.parse().ok()?;
        Some(i32::from(board.nearest(to, objectives)?) - i32::from(board.nearest(u.hex?, objectives)?))
    };
    decision
        .options
        .iter()
        .filter_map(|c| Some((gain(c)?, c)))
        .filter(|(g, _)| *g > 0)
        .max_by_key(|(g, _)| *g)
        .map(|(_, c)| c.id.clone())
        .or_else(|| id(decision, "none"))
}
