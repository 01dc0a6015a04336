//! What it costs a marching unit to enter a hex (GCACW 6.1, 6.2; HSN-B 2.2, 10.0), and the hexes it
//! can reach. Terrain numbers come from the charts; this module applies the rules around them:
//! routes, rivers, creeks in rain, swamps and mountains, ridges, friendly-occupied hexes, wagons,
//! and zones of control.

use caisson_hexmap::{algorithms, Hex, Hexside, Map, Terrain};

use crate::catalog::CounterType;
use crate::charts::{Half, Route};
use crate::rules::Gcacw;
use crate::scenario::RuleKind;
use crate::state::{March, State};
use crate::zoc::Zoc;
use crate::Side;

/// The surroundings of one marching unit, computed once per decision.
pub struct MoveContext {
    /// Marching side.
    pub side: Side,
    /// Unit type of the marcher.
    pub mover: CounterType,
    /// Rain turn.
    pub rain: bool,
    /// Winter weather (HSN-A 4.0): Movement Points as in rain, but creeks and fords as in clear
    /// weather.
    pub winter: bool,
    /// Enemy zones of control, by map index.
    pub enemy_zoc: Vec<Zoc>,
    /// Occupying side, by map index (the marcher excluded).
    pub occupant: Vec<Option<Side>>,
    /// Combined Combat value of friendly infantry, by map index (the marcher excluded).
    pub friendly_cv: Vec<Half>,
    /// Whether friendly infantry is in the hex.
    pub infantry: Vec<bool>,
    /// Whether a friendly wagon train is in the hex.
    pub wagon: Vec<bool>,
    /// The bridges as they stand.
    pub bridges: crate::bridges::Bridges,
    /// Counties the marcher must stay in (a scenario rule), if any.
    pub confined: Option<Vec<String>>,
    /// Extra cost for a wagon to cross a bridge (a scenario rule).
    pub wagon_bridge: u16,
    /// Rivers unfordable this turn (a scenario rule, GCACW 12.0): fords closed as in rain.
    pub fords_closed: bool,
    /// Standing Union forts, which Confederate units may not enter (HSN-A 8.0).
    pub forts: Vec<Hex>,
    /// Hexes a scenario rule bars the marcher from, by map index (empty: none).
    pub barred: Vec<bool>,
    /// The turn (for scenario rules limited to some turns).
    pub turn: u16,
}

impl MoveContext {
    /// The context of unit `u`'s march.
    #[must_use]
    pub fn new(rules: &Gcacw, state: &State, u: usize) -> MoveContext {
        let map = rules.map();
        let side = rules.unit_side(state, u);
        let n = map.index_len();
        let mut ctx = MoveContext {
            side,
            mover: rules.unit_type(state, u),
            rain: state.rain,
            winter: state.campaign.winter_on(state.turn),
            enemy_zoc: rules.zoc_of(state, side.enemy()),
            occupant: vec![None; n],
            friendly_cv: vec![Half::whole(0); n],
            infantry: vec![false; n],
            wagon: vec![false; n],
            bridges: state.bridges.clone(),
            confined: None,
            forts: crate::combat::forts_in_play(rules, state).undestroyed,
            fords_closed: crate::combat::unfordable(rules, state),
            wagon_bridge: 0,
            // HSN Sc 7 movement restrictions; HSN Sc 9 Union Unit Restrictions (d).
            barred: rules.barred_hexes(state, u),
            turn: state.turn,
        };
        let id = rules.unit_id(state, u);
        for r in rules.scenario().rules() {
            match r {
                RuleKind::Confined { counters, counties } if counters.iter().any(|c| c == id) => {
                    ctx.confined = Some(counties.clone());
                }
                RuleKind::WagonBridgeCost { extra } => ctx.wagon_bridge = u16::from(*extra),
                _ => {}
            }
        }
        for (v, h) in rules.on_map(state) {
            if v == u {
                continue;
            }
            let Some(i) = map.index(h) else { continue };
            let vs = rules.unit_side(state, v);
            ctx.occupant[i] = Some(vs);
            if vs == side {
                match rules.unit_type(state, v) {
                    CounterType::Infantry => {
                        ctx.friendly_cv[i] = ctx.friendly_cv[i] + rules.combat_value(state, v);
                        ctx.infantry[i] = true;
                    }
                    CounterType::Wagon => ctx.wagon[i] = true,
                    _ => {}
                }
            }
        }
        ctx
    }

    fn zoc(&self, map: &Map, h: Hex) -> bool {
        map.index(h).is_some_and(|i| self.enemy_zoc[i] == Zoc::Normal)
    }
}

/// One step's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepCost {
    /// Movement points spent (for ZOC to ZOC: the whole allowance, see `ends`).
    pub cost: Half,
    /// The march ends in the hex entered (enemy ZOC entered, or ZOC to ZOC).
    pub ends: bool,
    /// ZOC to ZOC: the whole Movement Allowance is spent.
    pub zoc_to_zoc: bool,
    /// ZOC to ZOC with no route between the hexes: disorganize, or lose 1 Manpower (GCACW 6.2).
    pub disorganizes: bool,
}

/// The cheapest route across a hexside and its cost, if any route crosses it.
fn route_cost(rules: &Gcacw, side: Hexside, into: Terrain, rain: bool) -> Option<Half> {
    let routes = [
        (Hexside::PIKE, Route::Pike),
        (Hexside::ROAD, Route::Road),
        (Hexside::UNFINISHED_RAILROAD, Route::Road),
        (Hexside::RAILROAD, Route::Railroad),
        (Hexside::TRAIL, Route::Trail),
    ];
    routes.iter().filter(|(bit, _)| side.contains(*bit)).map(|(_, r)| rules.charts().route_cost(*r, into, rain)).min()
}

/// What entering `to` from the adjacent `from` costs a unit, or `None` if it may not.
/// `first` says whether this is the march's first activity and `started_in_zoc` whether it began
/// in an enemy normal ZOC; `wagon_paid` whether a wagon has paid its non-pike penalty.
#[must_use]
pub fn step(
    rules: &Gcacw,
    ctx: &MoveContext,
    from: Hex,
    to: Hex,
    first: bool,
    started_in_zoc: bool,
    wagon_paid: bool,
) -> Option<StepCost> {
    let map = rules.map();
    let into = map.terrain(to)?;
    let leaving = map.terrain(from)?;
    let ti = map.index(to)?;
    if into == Terrain::Water
        || ctx.occupant[ti] == Some(ctx.side.enemy())
        || rules.prohibited_on(ctx.side, to, ctx.turn)
    {
        return None;
    }
    if ctx.side == Side::Confederate && ctx.forts.contains(&to) {
        return None;
    }
    if let Some(counties) = &ctx.confined {
        if !map.county(to).is_some_and(|c| counties.iter().any(|k| k == c)) {
            return None;
        }
    }
    if map.index(to).is_some_and(|i| ctx.barred.get(i).copied().unwrap_or(false)) {
        return None;
    }
    let side = map.hexside(from, to);
    if side.contains(Hexside::ALL_WATER) {
        return None;
    }
    let route = side.intersects(Hexside::ANY_ROUTE);
    // Rivers: only at a standing bridge, an own pontoon, or (not in rain) a ford or destroyed
    // bridge (GCACW 6.1, 10.0, 10.2, 12.0). The Cumberland's bridges are for the Union alone
    // (HSN-B 10.0).
    let mut pontoon_road = false;
    if side.intersects(Hexside::RIVER) {
        let c = ctx.bridges.crossing(map, from, to);
        let own_pontoon = c.pontoon.is_some_and(|(owner, _)| owner == ctx.side);
        pontoon_road = own_pontoon && c.pontoon.is_some_and(|(_, road)| road);
        if !(c.bridge || own_pontoon || (c.ford && !ctx.rain && !ctx.fords_closed))
            || (side.contains(Hexside::MAJOR_RIVER) && ctx.side == Side::Confederate)
        {
            return None;
        }
    }
    // Creeks in rain: only along a route, or into or out of a city (GCACW 12.0).
    if ctx.rain && side.contains(Hexside::CREEK) && !route && into != Terrain::City && leaving != Terrain::City {
        return None;
    }
    // Swamps and mountains open only along certain routes (GCACW 6.1).
    let swampy = |t: Terrain| t == Terrain::Swamp || (ctx.rain && t == Terrain::ProvisionalSwamp);
    if (swampy(into) || swampy(leaving)) && !side.intersects(Hexside::ROAD_PIKE_RR) {
        return None;
    }
    if (into == Terrain::Mountain || leaving == Terrain::Mountain) && !route {
        return None;
    }
    let terrain = if ctx.rain && into == Terrain::ProvisionalSwamp { Terrain::Swamp } else { into };
    let route_side = if pontoon_road { side | Hexside::ROAD } else { side };
    // HSN-A 4.0: in winter hexes cost what they cost in rain (creeks and fords stay open above).
    // Provisional swamps stay rough hexes in winter (ruling R45).
    let rain_costs = ctx.rain || ctx.winter;
    let terrain = if ctx.winter && terrain == Terrain::ProvisionalSwamp { Terrain::Rough } else { terrain };
    let mut cost = match route_cost(rules, route_side, terrain, rain_costs) {
        Some(c) => c,
        None => rules.charts().terrain_cost(terrain, rain_costs)?,
    };
    if side.intersects(Hexside::RIDGE) {
        cost = cost + rules.charts().ridge_extra();
    }
    // Wagons (HSN-B 2.2): +1 the first time in a march across a non-pike hexside, +2 at a ford.
    if ctx.mover == CounterType::Wagon {
        if !wagon_paid && !side.contains(Hexside::PIKE) {
            cost = cost + Half::whole(1);
        }
        if side.contains(Hexside::FORD) {
            cost = cost + Half::whole(2);
        }
        if side.contains(Hexside::BRIDGE) {
            cost = cost + Half::whole(ctx.wagon_bridge);
        }
    }
    // A hex with friendly infantry or a wagon train slows infantry and wagons entering it; mounted
    // cavalry neither pays nor counts (GCACW 6.2; HSN-B 2.2).
    if ctx.mover != CounterType::Cavalry && (ctx.infantry[ti] || ctx.wagon[ti]) {
        cost = cost + rules.charts().occupied_penalty(into, ctx.friendly_cv[ti], ctx.wagon[ti], rain_costs);
    }
    // Zones of control (GCACW 6.2).
    let (zoc_from, zoc_to) = (ctx.zoc(map, from), ctx.zoc(map, to));
    let mut out = StepCost { cost, ends: false, zoc_to_zoc: false, disorganizes: false };
    if zoc_from {
        if !(first && started_in_zoc) {
            return None;
        }
        if zoc_to {
            out.zoc_to_zoc = true;
            out.ends = true;
            out.disorganizes = !route;
        } else {
            out.cost = out.cost + Half::whole(1);
        }
    } else if zoc_to {
        out.ends = true;
    }
    Some(out)
}

/// Whether unit `u` stands in an enemy normal ZOC.
#[must_use]
pub fn in_enemy_zoc(rules: &Gcacw, ctx: &MoveContext, hex: Hex) -> bool {
    ctx.zoc(rules.map(), hex)
}

/// Every hex the march can still reach with its remaining points, with the cheapest cost
/// (GCACW 6.1, 6.2): the query behind destination highlighting, and the benchmark's subject.
/// The minimum move (one hex whatever its cost, at the start of a march) is included.
#[must_use]
pub fn reachable(rules: &Gcacw, state: &State, march: &March) -> Vec<(Hex, Half)> {
    let map = rules.map();
    let ctx = MoveContext::new(rules, state, march.unit);
    let Some(start) = state.units[march.unit].hex else {
        return Vec::new();
    };
    let budget = u32::from(march.left.halves());
    let costs = algorithms::reachable(map, start, budget, |from, to| {
        let first = from == start && !march.moved;
        let s = step(rules, &ctx, from, to, first, march.started_in_zoc, march.wagon_paid || from != start)?;
        let cost = if s.zoc_to_zoc { budget } else { u32::from(s.cost.halves()) };
        Some(algorithms::Step { cost, stop: s.ends })
    });
    let mut out: Vec<(Hex, Half)> = costs
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (map.hex_at(i), Half::from_halves(c as u16))))
        .filter(|(h, _)| *h != start)
        .collect();
    if !march.moved {
        for (_, n) in map.neighbors(start) {
            if out.iter().all(|(h, _)| *h != n) {
                if let Some(s) = step(rules, &ctx, start, n, true, march.started_in_zoc, march.wagon_paid) {
                    out.push((n, s.cost));
                }
            }
        }
    }
    out.sort();
    out
}
