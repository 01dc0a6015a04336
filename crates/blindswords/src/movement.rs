//! [SR 10, SR 3.1; EX 2.10, 3.1, 6.5, 8.2a, 10, 15] Movement: Movement Allowances by order and
//! unit type, terrain and hexside costs, road and March Column rates, Skirmish Order, stacking,
//! engagement, Brigade Attack Coordination and the scenario's playable area.
//!
//! A unit moves one hex at a time; [`steps`] lists the hexes it may enter next with their cost.
//! Stacking is checked on entering each hex, not only at the end of the move: no move ever
//! leaves a hex over-stacked, so a unit may always stop where it is (a stricter reading of SR 3.1,
//! which lets units pass through an over-stacked hex off roads). The one exception is EX 6.5c:
//! artillery held up on a road out of Woods or across a Steep Slope may pass through a full hex
//! for 3 MP, and may not stop there (ruling PG37).

use caisson_hexmap::{Hex, Hexside, Map, TacticalTerrain};

use crate::catalog::{Side, UnitType};
use crate::charts::{Charts, Mover, Mp, Order};
use crate::rules::BlindSwords;
use crate::scenario::RuleKind;
use crate::state::{other, Place, State};

/// The Terrain Effects Chart name of a tactical terrain (`data/blind-swords/terrain.toml`).
#[must_use]
pub const fn terrain_key(t: TacticalTerrain) -> &'static str {
    match t {
        TacticalTerrain::Clear => "clear",
        TacticalTerrain::Woods => "woods",
        TacticalTerrain::Cornfield => "cornfield",
        TacticalTerrain::Orchard => "orchard",
        TacticalTerrain::Town => "town",
        TacticalTerrain::Building => "building",
        TacticalTerrain::DryStream => "dry-stream",
    }
}

/// The unit type's Terrain Effects Chart column (horse artillery moves as artillery).
#[must_use]
pub const fn mover(ty: UnitType) -> Mover {
    match ty {
        UnitType::Infantry => Mover::Infantry,
        UnitType::Cavalry => Mover::Cavalry,
        UnitType::Artillery | UnitType::HorseArtillery => Mover::Artillery,
    }
}

/// A unit's Movement Allowance: artillery by its kind (EX 6.0), others by their order (SR 8).
#[must_use]
pub fn allowance(charts: &Charts, ty: UnitType, order: Order) -> f64 {
    let o = &charts.orders;
    f64::from(match ty {
        UnitType::Infantry => o.details(order).infantry,
        UnitType::Cavalry => o.details(order).cavalry,
        UnitType::Artillery => o.foot_artillery(),
        UnitType::HorseArtillery => o.horse_artillery(),
    })
}

/// The cost of one step, with the rule that sets it.
#[derive(Clone, Debug, PartialEq)]
pub struct StepCost {
    /// MP.
    pub mp: f64,
    /// Along a road or trail (SR 3.1c: the stacking limit then holds in every hex).
    pub route: bool,
    /// How the cost was reached, for the option's label.
    pub why: String,
}

/// The MP to move from `from` (`None`: entering the map) into the adjacent `to` (SR 10.3;
/// EX 2.10h roads, 6.5 artillery, 15.2 skirmishers). `None`: prohibited.
#[must_use]
pub fn cost(
    rules: &BlindSwords,
    ty: UnitType,
    order: Option<Order>,
    skirmish: bool,
    from: Option<Hex>,
    to: Hex,
) -> Option<StepCost> {
    let data = rules.data();
    let (map, chart) = (&data.map, &data.charts.terrain);
    let m = mover(ty);
    let side = from.map_or(Hexside::NONE, |f| map.hexside(f, to));
    let movement = chart.movement();
    if side.intersects(Hexside::ROAD.union(Hexside::TRAIL)) {
        let road = side.contains(Hexside::ROAD);
        let (mp, why) = if road && m == Mover::Artillery {
            (movement.artillery_road, "artillery on a road, EX 2.10h")
        } else if road
            && !skirmish
            && order == Some(Order::Maneuver)
            && data.charts.orders.details(Order::Maneuver).march_column
        {
            (movement.march_column, "March Column, EX 2.10h")
        } else {
            (movement.road, "road or trail, EX 2.10h")
        };
        return Some(StepCost { mp, route: true, why: why.to_string() });
    }
    let terrain = map.tactical(to).map_or("clear", terrain_key);
    let mut total = match chart.hex_cost(terrain, m)? {
        Mp::Cost(c) => c,
        Mp::Prohibited => return None,
    };
    let mut why = vec![format!("{terrain} {total}")];
    if let Some(f) = from {
        let uphill = map.elevation(to).unwrap_or(0) > map.elevation(f).unwrap_or(0);
        let crossing = side.intersects(Hexside::FORD.union(Hexside::BRIDGE));
        for word in side.words() {
            if word == "river" && crossing {
                continue;
            }
            match chart.hexside_cost(word, m, uphill) {
                Some(Mp::Prohibited) => return None,
                Some(Mp::Cost(c)) if c > 0.0 => {
                    total += c;
                    why.push(format!("{word} +{c}"));
                }
                _ => {}
            }
        }
    }
    if skirmish {
        let reduced = (total - movement.skirmish_discount).max(movement.skirmish_minimum);
        if reduced < total {
            why.push(format!("skirmish order -{}, EX 15.2", total - reduced));
            total = reduced;
        }
    }
    Some(StepCost { mp: total, route: false, why: why.join(", ") })
}

/// Which units stand in each hex, built once for a search (the state keeps only each unit's
/// place): a list threaded through the units, headed at each hex's map index.
#[derive(Debug)]
pub struct Board<'m> {
    map: &'m Map,
    head: Vec<usize>,
    next: Vec<usize>,
}

const NONE: usize = usize::MAX;

impl<'m> Board<'m> {
    /// The board of a state.
    #[must_use]
    pub fn new(map: &'m Map, state: &State) -> Board<'m> {
        let mut head = vec![NONE; map.index_len()];
        let mut next = vec![NONE; state.units.len()];
        for (i, u) in state.units.iter().enumerate().rev() {
            if let Place::Map(h) = u.place {
                if let Some(k) = map.index(h) {
                    next[i] = head[k];
                    head[k] = i;
                }
            }
        }
        Board { map, head, next }
    }

    /// The units in a hex, in state order.
    pub fn units(&self, hex: Hex) -> impl Iterator<Item = usize> + '_ {
        let mut cur = self.map.index(hex).map_or(NONE, |k| self.head[k]);
        std::iter::from_fn(move || {
            let i = cur;
            (i != NONE).then(|| {
                cur = self.next[i];
                i
            })
        })
    }

    /// The side in a hex, if any.
    #[must_use]
    pub fn occupant(&self, state: &State, hex: Hex) -> Option<Side> {
        self.units(hex).next().map(|i| state.units[i].side)
    }
}

/// The stacking SP of the units in a hex, printed values (SR 3.1, 3.1a artillery table).
fn stack_sp(rules: &BlindSwords, state: &State, members: &[usize]) -> (f64, usize) {
    let mut sp = 0.0;
    let mut guns = 0u32;
    let mut n = 0;
    for &i in members {
        let u = &state.units[i];
        n += 1;
        if u.ty.is_artillery() {
            guns += u32::from(u.sp_halves) / 2;
        } else {
            sp += f64::from(u.sp_halves) / 2.0;
        }
    }
    (sp + rules.data().charts.artillery_stacking.stacking_sp(guns), n)
}

/// Why `hex` holding its units plus `unit` breaks stacking (SR 3.1; EX 3.1, 3.1c, 3.1d, 15.2),
/// or `None` when it does not.
#[must_use]
pub fn stacking_fault(
    rules: &BlindSwords,
    state: &State,
    board: &Board,
    hex: Hex,
    unit: Option<usize>,
) -> Option<String> {
    let members: Vec<usize> = board.units(hex).filter(|i| Some(*i) != unit).chain(unit).collect();
    let (sp, n) = stack_sp(rules, state, &members);
    if n > 1 && sp > 12.0 {
        return Some(format!("{sp} SP in {hex}, above 12 (EX 3.1)"));
    }
    if n > 1 && members.iter().any(|&i| state.units[i].skirmish) {
        return Some(format!("a skirmisher shares {hex} (EX 15.2)"));
    }
    let has = |t: UnitType| members.iter().any(|&i| state.units[i].ty == t);
    if has(UnitType::Cavalry) && (has(UnitType::Infantry) || has(UnitType::Artillery)) {
        return Some(format!("cavalry with infantry or foot artillery in {hex} (SR 3.1b, EX 3.1c)"));
    }
    None
}

/// Whether an enemy of `side` is adjacent to `hex`.
#[must_use]
pub fn enemy_adjacent(rules: &BlindSwords, state: &State, board: &Board, side: Side, hex: Hex) -> bool {
    rules.data().map.neighbors(hex).any(|(_, n)| board.occupant(state, n) == Some(other(side)))
}

/// The distance from `hex` to the nearest enemy unit of `side` (on the map's own grid);
/// `u16::MAX` with no enemy on the map.
pub(crate) fn enemy_distance(map: &Map, state: &State, side: Side, hex: Hex) -> u16 {
    state
        .units
        .iter()
        .filter(|u| u.side != side)
        .filter_map(|u| match u.place {
            Place::Map(h) => Some(map.distance(h, hex)),
            _ => None,
        })
        .min()
        .unwrap_or(u16::MAX)
}

/// Units of a brigade adjacent to the enemy, with `unit` at `at` instead of where it is.
fn engaged_count(
    rules: &BlindSwords,
    state: &State,
    board: &Board,
    brigade: &str,
    unit: usize,
    at: Option<Hex>,
) -> usize {
    state
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.brigade.as_deref() == Some(brigade))
        .filter_map(|(i, u)| if i == unit { at } else { state.hex_of(i) }.map(|h| (u.side, h)))
        .filter(|(s, h)| enemy_adjacent(rules, state, board, *s, *h))
        .count()
}

/// Whether a scenario bars `unit` from `hex` (EX 16.1d, ruling A-33).
fn barred(rules: &BlindSwords, state: &State, board: &Board, unit: usize, hex: Hex) -> bool {
    let u = &state.units[unit];
    rules.scenario().rules().any(|r| match &r.kind {
        RuleKind::ProhibitedUntilClear { side, types, west_of, north_of, clear_hex } => {
            *side == u.side
                && types.contains(&u.ty)
                && hex.col < *west_of
                && hex.row < *north_of
                && std::iter::once(*clear_hex)
                    .chain(rules.data().map.neighbors(*clear_hex).map(|(_, n)| n))
                    .any(|h| board.occupant(state, h) == Some(other(u.side)))
        }
        _ => false,
    })
}

/// The most units a side may have in Skirmish Order at once (EX 15.0).
pub const SKIRMISH_LIMIT: usize = 2;

/// Whether `unit`, moving with `mp` left, may take up Skirmish Order now (EX 15.0, 15.1):
/// infantry or cavalry on the map, not next to an enemy (its engagement range, SR 10.6), alone
/// in its hex (EX 15.2: a skirmisher never stacks), with the MP to pay, and fewer than
/// [`SKIRMISH_LIMIT`] skirmishers on its side.
#[must_use]
pub fn may_form(rules: &BlindSwords, state: &State, unit: usize, mp: f64) -> bool {
    let u = &state.units[unit];
    let Place::Map(h) = u.place else { return false };
    let board = Board::new(&rules.data().map, state);
    let skirmishers =
        state.units.iter().filter(|o| o.side == u.side && o.skirmish && matches!(o.place, Place::Map(_))).count();
    matches!(u.ty, UnitType::Infantry | UnitType::Cavalry)
        && !u.skirmish
        && mp >= rules.data().charts.terrain.movement().skirmish_entry
        && !enemy_adjacent(rules, state, &board, u.side, h)
        && board.units(h).count() == 1
        && skirmishers < SKIRMISH_LIMIT
}

/// EX 6.5c: artillery moving along a Road out of a Woods hex or across a Steep Slope hexside
/// (ruling PG37) may enter a hex it would over-stack for the congested-road MP, waiting for the
/// road to clear. It may not stop there (SR 3.1: the limit holds at the end of its move), so the
/// step is offered only when, with the MP left, a step on into a hex within stacking would follow.
fn congested(
    rules: &BlindSwords,
    state: &State,
    board: &Board,
    unit: usize,
    (from, to): (Option<Hex>, Hex),
    (mp, first): (f64, bool),
    order: Option<Order>,
) -> Option<StepCost> {
    let data = rules.data();
    let map = &data.map;
    let u = &state.units[unit];
    let from = from?;
    let side = map.hexside(from, to);
    let held_up = map.tactical(from) == Some(TacticalTerrain::Woods) || side.contains(Hexside::STEEP_SLOPE);
    if !u.ty.is_artillery() || !side.contains(Hexside::ROAD) || !held_up {
        return None;
    }
    let mp_jam = data.charts.terrain.movement().congested_road;
    if mp_jam > mp && !first {
        return None;
    }
    let left = mp - mp_jam;
    let onward = map.neighbors(to).map(|(_, n)| n).filter(|n| *n != from).any(|n| {
        let Some(mut c) = cost(rules, u.ty, order, u.skirmish, Some(to), n) else { return false };
        crate::special::night_cost(rules, state, Some(to), n, &mut c);
        map.contains(n)
            && rules.scenario().area.contains(n)
            && board.occupant(state, n).is_none_or(|s| s == u.side)
            && c.mp <= left
            && stacking_fault(rules, state, board, n, Some(unit)).is_none()
            && !barred(rules, state, board, unit, n)
            && enemy_distance(map, state, u.side, n) > 2
    });
    onward.then(|| StepCost {
        mp: mp_jam,
        route: true,
        why: format!("road congested by a full hex, EX 6.5c (ruling PG37): {mp_jam} MP, and it may not stop there"),
    })
}

/// Whether the moving unit's hex is over-stacked, so that it may not stop there (EX 6.5c).
#[must_use]
pub fn must_move_on(rules: &BlindSwords, state: &State, unit: usize) -> bool {
    let board = Board::new(&rules.data().map, state);
    state.hex_of(unit).is_some_and(|h| stacking_fault(rules, state, &board, h, None).is_some())
}

/// One legal next hex.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The hex.
    pub hex: Hex,
    /// What it costs.
    pub cost: StepCost,
}

/// The hexes `unit` may enter next with `mp` left (`first`: no hex entered yet this move, so
/// one hex is always allowed if not prohibited, SR 10.3), under `order` (`None`: artillery in
/// the Artillery Phase) as a member of `brigade` (for Attack Coordination, EX 8.2a).
#[must_use]
pub fn steps(rules: &BlindSwords, state: &State, unit: usize, mp: f64, first: bool, order: Option<Order>) -> Vec<Step> {
    let data = rules.data();
    let u = &state.units[unit];
    let sc = rules.scenario();
    let from = state.hex_of(unit);
    let targets: Vec<Hex> = match (u.place, from) {
        (_, Some(h)) => data.map.neighbors(h).map(|(_, n)| n).collect(),
        _ => Vec::new(),
    };
    let engage = order.is_some_and(|o| data.charts.orders.details(o).engage);
    let coordination = u.brigade.as_deref().and_then(|b| data.catalog.brigade(b)).and_then(|b| b.coordination);
    let board = Board::new(&data.map, state);
    let mut out = Vec::new();
    for to in targets {
        if !data.map.contains(to) || !sc.area.contains(to) || board.occupant(state, to) == Some(other(u.side)) {
            continue;
        }
        let Some(mut c) = cost(rules, u.ty, order, u.skirmish, from, to) else { continue };
        crate::special::night_cost(rules, state, from, to, &mut c);
        let screened = data
            .map
            .neighbors(to)
            .any(|(_, n)| board.units(n).any(|i| state.units[i].side != u.side && state.units[i].skirmish));
        if screened {
            c.mp += data.charts.terrain.movement().skirmish_screen;
            c.why.push_str(", enemy skirmisher screen, EX 15.3");
        }
        if c.mp > mp && !first {
            continue;
        }
        if barred(rules, state, &board, unit, to) {
            continue;
        }
        if stacking_fault(rules, state, &board, to, Some(unit)).is_some() {
            // EX 6.5c: artillery held up on a road may pass a full hex, at a price.
            let Some(jam) = congested(rules, state, &board, unit, (from, to), (mp, first), order) else { continue };
            c = jam;
        }
        let adjacent = enemy_adjacent(rules, state, &board, u.side, to);
        if u.ty.is_artillery() && order.is_none() {
            // SR 6.5a: artillery may not come within two hexes of the enemy, except to draw away.
            let d = enemy_distance(&data.map, state, u.side, to);
            if d <= 2 && from.is_none_or(|f| d <= enemy_distance(&data.map, state, u.side, f)) {
                continue;
            }
        } else if adjacent && (!engage || u.skirmish) {
            continue; // SR 10.6: only Attack and Defend may engage; EX 15.2: skirmishers never.
        } else if adjacent && u.brigade.is_some() && state.events.hidden == u.brigade {
            continue; // Hidden Enemy (events.toml): not adjacent to a Union unit this step.
        } else if let (true, Some(r), Some(b)) = (adjacent, coordination, u.brigade.as_deref()) {
            let after = engaged_count(rules, state, &board, b, unit, Some(to));
            let before = engaged_count(rules, state, &board, b, unit, from);
            if after > usize::from(r) && after > before {
                continue; // EX 8.2a Brigade Attack Coordination.
            }
        }
        out.push(Step { hex: to, cost: c });
    }
    out.sort_by_key(|s| s.hex);
    out.dedup_by_key(|s| s.hex);
    out
}
