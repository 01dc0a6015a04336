//! Movement charts: the Terrain Chart (GCACW 6.1, 6.2, 12.0), the friendly-occupied penalty
//! (GCACW 6.2), attack types (GCACW 6.1, 7.4) and Movement Allowances (GCACW 5.1, 5.2).

use crate::data::DataDir;
use std::collections::BTreeMap;
use std::fmt;

use caisson_hexmap::Terrain;
use caisson_kernel::data::DataError;
use serde::Deserialize;
use toml::Spanned;

use super::{note, terrain_key, Charts, FileCtx, Half, TerrainName};
use crate::Side;

/// A route crossing a hexside (GCACW 6.2). An unfinished railroad moves as a [`Route::Road`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Route {
    /// Pike: 1 MP, 1½ in rain (GCACW 6.2, 12.0).
    Pike,
    /// Road, and unfinished railroad: 1 MP, 2 in rain (GCACW 6.2, 12.0).
    Road,
    /// Railroad: 1 MP, 2 in rain (GCACW 6.2, 12.0).
    Railroad,
    /// Trail: 1 MP (2 into mountain), 2 in rain (3 into mountain) (GCACW 6.2, 12.0).
    Trail,
}

impl Route {
    /// Every route.
    pub const ALL: [Route; 4] = [Route::Pike, Route::Road, Route::Railroad, Route::Trail];

    fn key(self) -> &'static str {
        match self {
            Route::Pike => "pike",
            Route::Road => "road",
            Route::Railroad => "railroad",
            Route::Trail => "trail",
        }
    }
}

/// Which routes open a terrain that may only be entered and left along a route (GCACW 6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RouteNeed {
    /// Road, pike or railroad, not a trail (swamp, GCACW 6.2).
    RoadPikeRailroad,
    /// Any route, trails included (mountain, GCACW 6.2).
    AnyRoute,
}

impl RouteNeed {
    /// Whether `route` satisfies the need.
    #[must_use]
    pub fn allows(self, route: Route) -> bool {
        match self {
            RouteNeed::RoadPikeRailroad => route != Route::Trail,
            RouteNeed::AnyRoute => true,
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum TerrainRule {
    Cost { normal: Half, rain: Half },
    RouteOnly(RouteNeed),
    Acts { dry: Terrain, rain: Terrain },
    Prohibited,
}

#[derive(Clone, Copy, Debug)]
struct RouteCost {
    normal: Half,
    rain: Half,
    mountain: Option<(Half, Half)>,
}

/// The Terrain Chart (GCACW 6.1, 6.2, 12.0).
#[derive(Clone, Debug)]
pub(crate) struct TerrainChart {
    rules: BTreeMap<Terrain, TerrainRule>,
    routes: BTreeMap<Route, RouteCost>,
    ridge: Half,
    /// The least of all the terrain and route costs, dry or in rain ([`Charts::cheapest_step`]).
    cheapest: Half,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    source: String,
    terrain: Vec<Spanned<TerrainRow>>,
    route: Vec<Spanned<RouteRow>>,
    ridge: Spanned<RidgeRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainRow {
    terrain: TerrainName,
    cost: Option<Half>,
    rain_cost: Option<Half>,
    route_only: Option<RouteNeed>,
    dry_as: Option<TerrainName>,
    rain_as: Option<TerrainName>,
    #[serde(default)]
    prohibited: bool,
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RouteRow {
    route: Route,
    cost: Half,
    rain_cost: Half,
    mountain_cost: Option<Half>,
    mountain_rain_cost: Option<Half>,
    source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RidgeRow {
    extra: Half,
    source: Option<String>,
}

const TERRAIN_CHART: &str = "Terrain Chart";

impl TerrainChart {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<TerrainChart, DataError> {
        let (f, cx): (TerrainFile, _) = FileCtx::load(dir, "terrain.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        let mut rules = BTreeMap::new();
        for row in &f.terrain {
            let span = row.span();
            let r = row.get_ref();
            let source = r.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            let t = r.terrain.0;
            let rule = match (r.cost, r.rain_cost, r.route_only, r.dry_as, r.rain_as, r.prohibited) {
                (Some(normal), Some(rain), None, None, None, false) => {
                    note(notes, TERRAIN_CHART, &format!("{t} costs {normal} MP (rain {rain})"), source);
                    TerrainRule::Cost { normal, rain }
                }
                (None, None, Some(need), None, None, false) => {
                    note(notes, TERRAIN_CHART, &format!("{t} only along a route"), source);
                    TerrainRule::RouteOnly(need)
                }
                (None, None, None, Some(dry), Some(rain), false) => {
                    note(notes, TERRAIN_CHART, &format!("{t} acts as {} (rain {})", dry.0, rain.0), source);
                    TerrainRule::Acts { dry: dry.0, rain: rain.0 }
                }
                (None, None, None, None, None, true) => TerrainRule::Prohibited,
                _ => {
                    return Err(cx.err(
                        &span,
                        format!(
                            "terrain `{}`: give exactly one of `cost` + `rain_cost`, `route_only`, \
                             `dry_as` + `rain_as`, or `prohibited = true`",
                            terrain_key(t)
                        ),
                    ))
                }
            };
            if rules.insert(t, rule).is_some() {
                return Err(cx.err(&span, format!("terrain `{}` is listed twice", terrain_key(t))));
            }
        }
        for t in Terrain::ALL {
            if !rules.contains_key(&t) {
                return Err(cx.whole(format!("terrain `{}` is missing", terrain_key(t))));
            }
        }
        for row in &f.terrain {
            if let TerrainRule::Acts { dry, rain } = rules[&row.get_ref().terrain.0] {
                if [dry, rain].iter().any(|x| matches!(rules[x], TerrainRule::Acts { .. })) {
                    return Err(cx.err(&row.span(), "`dry_as`/`rain_as` must name a terrain with its own costs"));
                }
            }
        }
        let mut routes = BTreeMap::new();
        for row in &f.route {
            let span = row.span();
            let r = row.get_ref();
            let source = r.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            let mountain = match (r.mountain_cost, r.mountain_rain_cost) {
                (Some(n), Some(rn)) => Some((n, rn)),
                (None, None) => None,
                _ => return Err(cx.err(&span, "give both `mountain_cost` and `mountain_rain_cost`, or neither")),
            };
            note(
                notes,
                TERRAIN_CHART,
                &format!("{} costs {} MP (rain {})", r.route.key(), r.cost, r.rain_cost),
                source,
            );
            let cost = RouteCost { normal: r.cost, rain: r.rain_cost, mountain };
            if routes.insert(r.route, cost).is_some() {
                return Err(cx.err(&span, format!("route `{}` is listed twice", r.route.key())));
            }
        }
        for route in Route::ALL {
            if !routes.contains_key(&route) {
                return Err(cx.whole(format!("route `{}` is missing", route.key())));
            }
        }
        let ridge_source = f.ridge.get_ref().source.as_deref().unwrap_or(&f.source);
        cx.check_source(&f.ridge.span(), ridge_source)?;
        note(notes, TERRAIN_CHART, &format!("ridge +{} MP", f.ridge.get_ref().extra), ridge_source);
        let terrain_costs = rules.values().filter_map(|r| match r {
            TerrainRule::Cost { normal, rain } => Some([*normal, *rain]),
            _ => None,
        });
        let route_costs =
            routes.values().flat_map(|r| [[r.normal, r.rain]].into_iter().chain(r.mountain.map(|(n, w)| [n, w])));
        let cheapest = terrain_costs.chain(route_costs).flatten().min().unwrap_or(Half::ZERO);
        Ok(TerrainChart { rules, routes, ridge: f.ridge.get_ref().extra, cheapest })
    }
}

/// The Enter Friendly-Occupied Hex table (GCACW 6.2).
#[derive(Clone, Debug)]
pub(crate) struct OccupiedChart {
    /// Inclusive lower bound (whole Combat points) of each row; the last row is open-ended.
    rows: Vec<u16>,
    columns: BTreeMap<Terrain, (Vec<Half>, Half)>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OccupiedFile {
    source: String,
    rows: Vec<Spanned<Band>>,
    column: Vec<Spanned<OccupiedColumn>>,
}

/// A band of whole values; `to` absent means "and more".
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct Band {
    #[serde(default)]
    pub(crate) label: Option<String>,
    pub(crate) from: u16,
    pub(crate) to: Option<u16>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OccupiedColumn {
    terrains: Vec<TerrainName>,
    penalties: Vec<Half>,
    wagon: Half,
    source: Option<String>,
}

/// Checks that bands start at `start`, follow each other without gap or overlap, and that
/// only the last is open-ended; returns their lower bounds.
pub(crate) fn contiguous_bands(cx: &FileCtx, bands: &[Spanned<Band>], start: u16) -> Result<Vec<u16>, DataError> {
    let mut next = Some(start);
    let mut lows = Vec::new();
    for b in bands {
        let span = b.span();
        let band = b.get_ref();
        match next {
            Some(n) if n == band.from => {}
            Some(n) => {
                let name = band.label.as_deref().unwrap_or("this band");
                return Err(cx.err(&span, format!("`{name}` should start at {n}, not {}", band.from)));
            }
            None => return Err(cx.err(&span, "a band follows the open-ended one (without `to`)")),
        }
        if band.to.is_some_and(|t| t < band.from) {
            return Err(cx.err(&span, "`to` is below `from`"));
        }
        lows.push(band.from);
        next = band.to.map(|t| t + 1);
    }
    if next.is_some() {
        return Err(cx.whole("the last band must be open-ended (no `to`)"));
    }
    Ok(lows)
}

impl OccupiedChart {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<OccupiedChart, DataError> {
        let (f, cx): (OccupiedFile, _) = FileCtx::load(dir, "occupied.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        let rows = contiguous_bands(&cx, &f.rows, 0)?;
        let mut columns = BTreeMap::new();
        for col in &f.column {
            let span = col.span();
            let c = col.get_ref();
            let source = c.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            if c.penalties.len() != rows.len() {
                return Err(cx.err(&span, format!("`penalties` needs {} values, one per row", rows.len())));
            }
            for t in &c.terrains {
                if columns.insert(t.0, (c.penalties.clone(), c.wagon)).is_some() {
                    return Err(cx.err(&span, format!("terrain `{}` is in two columns", terrain_key(t.0))));
                }
            }
            let names: Vec<String> = c.terrains.iter().map(|t| t.0.to_string()).collect();
            let values: Vec<String> = c.penalties.iter().map(ToString::to_string).collect();
            note(
                notes,
                "Friendly-Occupied Hex",
                &format!("{}: +{} MP (wagon +{})", names.join("/"), values.join("/"), c.wagon),
                source,
            );
        }
        for t in Terrain::ALL {
            let needs = !matches!(t, Terrain::Water | Terrain::ProvisionalSwamp);
            if needs && !columns.contains_key(&t) {
                return Err(cx.whole(format!("terrain `{}` is in no column", terrain_key(t))));
            }
        }
        Ok(OccupiedChart { rows, columns })
    }
}

/// The four kinds of attack in a march (GCACW 6.1, 7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AttackType {
    /// Column of route: no MP, −3; needs at least 1 MP left when declared (GCACW 6.1).
    ColumnOfRoute,
    /// Hasty: 1 MP (cavalry 2), −1.
    Hasty,
    /// Normal: 2 MP (cavalry 4), no modifier.
    Normal,
    /// Prepared: 4 MP (cavalry 8), +1.
    Prepared,
}

impl AttackType {
    /// Every attack type.
    pub const ALL: [AttackType; 4] =
        [AttackType::ColumnOfRoute, AttackType::Hasty, AttackType::Normal, AttackType::Prepared];
}

/// Cost and modifier of an attack type (GCACW 6.1, 7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackTypeRow {
    /// MP an infantry unit spends (GCACW 6.1).
    pub infantry_mp: Half,
    /// MP a cavalry unit spends (GCACW 6.1).
    pub cavalry_mp: Half,
    /// Modifier to the attacker's die roll (GCACW 7.4).
    pub drm: i8,
    /// MP that must remain when the attack is declared (column of route: 1, GCACW 6.1).
    pub min_ma: Half,
}

#[derive(Clone, Debug)]
pub(crate) struct AttackTypes(BTreeMap<AttackType, AttackTypeRow>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttackFile {
    source: String,
    attack: Vec<Spanned<AttackRaw>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttackRaw {
    kind: AttackType,
    infantry_mp: Half,
    cavalry_mp: Half,
    drm: i8,
    #[serde(default)]
    min_ma: Half,
    source: Option<String>,
}

impl AttackTypes {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<AttackTypes, DataError> {
        let (f, cx): (AttackFile, _) = FileCtx::load(dir, "attack-types.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        let mut map = BTreeMap::new();
        for row in &f.attack {
            let span = row.span();
            let r = row.get_ref();
            let source = r.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            note(notes, "Attack Types", &format!("{:?}", r.kind), source);
            let value =
                AttackTypeRow { infantry_mp: r.infantry_mp, cavalry_mp: r.cavalry_mp, drm: r.drm, min_ma: r.min_ma };
            if map.insert(r.kind, value).is_some() {
                return Err(cx.err(&span, format!("attack type {:?} is listed twice", r.kind)));
            }
        }
        for kind in AttackType::ALL {
            if !map.contains_key(&kind) {
                return Err(cx.whole(format!("attack type {kind:?} is missing")));
            }
        }
        Ok(AttackTypes(map))
    }
}

/// Who rolls for a Movement Allowance (GCACW 5.1 March; 5.2 Activate Leader; HSN-B 2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mover {
    /// An infantry (or artillery) unit marching (GCACW 5.1).
    Infantry,
    /// A cavalry unit marching (GCACW 5.1).
    Cavalry,
    /// A wagon train marching, as infantry (HSN-B 2.2).
    Wagon,
    /// An infantry (or district) leader's activation (GCACW 5.2).
    InfantryLeader,
    /// A cavalry division leader's activation (GCACW 5.2).
    CavalryDivisionLeader,
    /// A cavalry corps leader's activation (GCACW 5.2).
    CavalryCorpsLeader,
}

impl Mover {
    /// Every mover.
    pub const ALL: [Mover; 6] = [
        Mover::Infantry,
        Mover::Cavalry,
        Mover::Wagon,
        Mover::InfantryLeader,
        Mover::CavalryDivisionLeader,
        Mover::CavalryCorpsLeader,
    ];
}

/// A number of six-sided dice plus a fixed amount (GCACW 5.1, 5.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    /// How many dice are rolled and summed.
    pub dice: u8,
    /// Added to the sum.
    pub plus: i8,
}

impl fmt::Display for Dice {
    /// "1d6", "2d6+1".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d6", self.dice)?;
        match self.plus {
            0 => Ok(()),
            p if p > 0 => write!(f, "+{p}"),
            p => write!(f, "{p}"),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct MovementAllowances(BTreeMap<(Side, Mover), Dice>);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MaFile {
    source: String,
    row: Vec<Spanned<MaRow>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MaRow {
    side: Side,
    mover: Mover,
    dice: u8,
    plus: i8,
    source: Option<String>,
}

impl MovementAllowances {
    pub(crate) fn load(dir: &DataDir, notes: &mut Vec<String>) -> Result<MovementAllowances, DataError> {
        let (f, cx): (MaFile, _) = FileCtx::load(dir, "movement-allowance.toml")?;
        cx.check_source(&(0..0), &f.source)?;
        let mut map = BTreeMap::new();
        for row in &f.row {
            let span = row.span();
            let r = row.get_ref();
            let source = r.source.as_deref().unwrap_or(&f.source);
            cx.check_source(&span, source)?;
            if !(1..=2).contains(&r.dice) {
                return Err(cx.err(&span, "`dice` must be 1 or 2"));
            }
            let dice = Dice { dice: r.dice, plus: r.plus };
            note(notes, "Movement Allowance", &format!("{} {:?}: {dice}", r.side, r.mover), source);
            if map.insert((r.side, r.mover), dice).is_some() {
                return Err(cx.err(&span, format!("{} {:?} is listed twice", r.side, r.mover)));
            }
        }
        for side in Side::BOTH {
            for mover in Mover::ALL {
                if !map.contains_key(&(side, mover)) {
                    return Err(cx.whole(format!("no row for {side} {mover:?}")));
                }
            }
        }
        Ok(MovementAllowances(map))
    }
}

impl Charts {
    /// The terrain `t` behaves as in this weather: provisional swamp is rough in dry turns and
    /// swamp in rain turns (GCACW 6.2, 12.0); every other terrain is itself.
    #[must_use]
    pub fn effective_terrain(&self, t: Terrain, rain: bool) -> Terrain {
        match self.terrain.rules.get(&t) {
            Some(TerrainRule::Acts { dry, rain: wet }) => {
                if rain {
                    *wet
                } else {
                    *dry
                }
            }
            _ => t,
        }
    }

    /// MP to enter a hex of terrain `t` across a hexside without a route (GCACW 6.1; rain
    /// turns and HSN winter weather, GCACW 12.0 and HSN-A 4.0). `None`: the hex can only be
    /// entered along a route ([`Charts::needs_route`]), or not at all (water,
    /// [`Charts::impassable`]). Provisional swamp is resolved by the weather.
    #[must_use]
    pub fn terrain_cost(&self, t: Terrain, rain: bool) -> Option<Half> {
        match self.terrain.rules.get(&self.effective_terrain(t, rain)) {
            Some(TerrainRule::Cost { normal, rain: wet }) => Some(if rain { *wet } else { *normal }),
            _ => None,
        }
    }

    /// Which routes a hex of terrain `t` must be entered and left by (GCACW 6.2): swamp needs a
    /// road, pike or railroad; mountain any route, trails included. `None` for terrain entered
    /// freely. Provisional swamp is read as in a dry turn; in rain pass
    /// `self.effective_terrain(t, true)`.
    #[must_use]
    pub fn needs_route(&self, t: Terrain) -> Option<RouteNeed> {
        match self.terrain.rules.get(&self.effective_terrain(t, false)) {
            Some(TerrainRule::RouteOnly(need)) => Some(*need),
            _ => None,
        }
    }

    /// Whether no unit may ever enter terrain `t` (water, GCACW 6.2).
    #[must_use]
    pub fn impassable(&self, t: Terrain) -> bool {
        matches!(self.terrain.rules.get(&t), Some(TerrainRule::Prohibited))
    }

    /// Whether a move along `route` may enter (or leave) a hex of terrain `into` in this
    /// weather (GCACW 6.2: a trail does not open a swamp; nothing opens water).
    #[must_use]
    pub fn route_allowed(&self, route: Route, into: Terrain, rain: bool) -> bool {
        let t = self.effective_terrain(into, rain);
        if self.impassable(t) {
            return false;
        }
        self.needs_route(t).is_none_or(|need| need.allows(route))
    }

    /// MP to enter a hex of terrain `into` across a hexside crossed by `route`, ignoring the
    /// hex's own terrain (GCACW 6.2; rain GCACW 12.0): pike 1 (rain 1½), road and railroad 1
    /// (rain 2), trail 1 or 2 into mountain (rain 2 or 3). An unfinished railroad is a
    /// [`Route::Road`]. Whether the route may be used at all is [`Charts::route_allowed`].
    /// Ridge and other extras are not included.
    #[must_use]
    pub fn route_cost(&self, route: Route, into: Terrain, rain: bool) -> Half {
        let Some(cost) = self.terrain.routes.get(&route) else {
            return Half::ZERO;
        };
        match (cost.mountain, self.effective_terrain(into, rain) == Terrain::Mountain) {
            (Some((normal, wet)), true) => {
                if rain {
                    wet
                } else {
                    normal
                }
            }
            _ => {
                if rain {
                    cost.rain
                } else {
                    cost.normal
                }
            }
        }
    }

    /// The least one step of a march can cost, in any weather (GCACW 6.2, 12.0): the cheapest
    /// terrain or route cost on the chart, found once at load. Ridges, wagons, occupied hexes
    /// and zones of control only add to a step, so a path of `n` steps costs at least `n` times
    /// this.
    #[must_use]
    pub fn cheapest_step(&self) -> Half {
        self.terrain.cheapest
    }

    /// Extra MP to cross a ridge hexside, either way and even along a route (GCACW 6.2).
    #[must_use]
    pub fn ridge_extra(&self) -> Half {
        self.terrain.ridge
    }

    /// MP penalty for an active infantry, artillery or wagon unit (or unmounted cavalry,
    /// HSN-A 5.5) entering a friendly-occupied hex of terrain `into` (GCACW 6.2).
    /// `combined_cv` is the Combat value already in the hex without entrenchment; it is rounded
    /// up to whole points first (11½ counts as "more than 11"). With `wagon_in_hex` the wagon
    /// row applies if it is larger. Provisional swamp counts as rough, or as swamp when
    /// `rain`. Mounted cavalry neither pays nor triggers the penalty: the caller skips it.
    /// Water gives 0 (it cannot be entered).
    #[must_use]
    pub fn occupied_penalty(&self, into: Terrain, combined_cv: Half, wagon_in_hex: bool, rain: bool) -> Half {
        let t = self.effective_terrain(into, rain);
        let Some((penalties, wagon)) = self.occupied.columns.get(&t) else {
            return Half::ZERO;
        };
        let cv = combined_cv.ceil();
        let row = self.occupied.rows.iter().rposition(|low| *low <= cv).unwrap_or(0);
        let by_cv = penalties.get(row).copied().unwrap_or(Half::ZERO);
        if wagon_in_hex {
            by_cv.max(*wagon)
        } else {
            by_cv
        }
    }

    /// MP cost and die-roll modifier of an attack type in a march (GCACW 6.1, 7.4).
    #[must_use]
    pub fn attack_type(&self, kind: AttackType) -> AttackTypeRow {
        self.attacks.0.get(&kind).copied().unwrap_or(AttackTypeRow {
            infantry_mp: Half::ZERO,
            cavalry_mp: Half::ZERO,
            drm: 0,
            min_ma: Half::ZERO,
        })
    }

    /// The Movement Allowance roll of a side's mover (GCACW 5.1 for marches, 5.2 for leader
    /// activations, HSN values; a wagon as its side's infantry, HSN-B 2.2). Scenario and
    /// Advanced-game adjustments (arrival bonus, Command Paralysis, wagons in a leader's
    /// activation) are applied by the caller.
    #[must_use]
    pub fn movement_allowance(&self, side: Side, mover: Mover) -> Dice {
        self.movement.0.get(&(side, mover)).copied().unwrap_or(Dice { dice: 1, plus: 0 })
    }
}
