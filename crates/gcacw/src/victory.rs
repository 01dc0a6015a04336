//! Victory points of the Hood Strikes North Basic Game scenarios 1–8 (each scenario's "VC:
//! Victory Conditions" and victory-level table).
//!
//! Every award in a scenario file's `[victory]` section is evaluated by code keyed on the
//! scenario number and the award id ([`score`]); an award the code does not know is itemised as
//! [`NOT_EVALUATED`] and the test suite fails. Some awards depend on what happened during the
//! game, not only on the final position (HSN Sc 2 "entered Columbia on Turn 4 or earlier", Sc 4
//! "enters Franklin on Turn 1", Sc 6 "at the end of Turn 1"): the engine calls [`observe`] after
//! every change of position and at the end of every turn, and it keeps those facts in
//! [`State::flags`]. Sc 5 blockhouse kills are recorded by the blockhouse procedure with
//! [`record_blockhouse_destroyed`].
//!
//! Rulings made here are listed in `docs/rulings.md` (victory points) and cited in the code.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};

use caisson_hexmap::{algorithms, Hex, Hexside, Terrain};
use serde::Serialize;

use crate::catalog::CounterType;
use crate::charts::Half;
use crate::movement::{self, MoveContext};
use crate::rules::Gcacw;
use crate::scenario::{Award, RuleKind, Victory};
use crate::state::{LossCause, State};
use crate::zoc::{self, Zoc};
use crate::Side;

/// The detail of an award the code does not evaluate (a bug: every award of Sc 1–8 is known).
pub const NOT_EVALUATED: &str = "not evaluated";

/// One award of the scenario, evaluated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreItem {
    /// The award id of the scenario file.
    pub id: String,
    /// The award's condition, as the scenario file words it.
    pub text: String,
    /// What was counted, e.g. "3 brigades × ½ = 1½, rounded up to 2".
    pub detail: String,
    /// Victory points this award gives now (negative for a loss).
    pub vp: f64,
}

/// The victory-point score of a game as it stands.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Score {
    /// The side whose VP are counted.
    pub side: Side,
    /// Every award of the scenario, in the order of the scenario file.
    pub items: Vec<ScoreItem>,
    /// The total.
    pub total: f64,
    /// The victory level of the total, from the scenario's table.
    pub level: String,
}

// ----- places --------------------------------------------------------------------------------

const COLUMBIA: Hex = Hex::new(17, 15);
const FORT_MIZNER: Hex = Hex::new(17, 14);
const FRANKLIN: Hex = Hex::new(40, 10);
const NASHVILLE: [Hex; 2] = [Hex::new(57, 6), Hex::new(57, 7)];
const BRENTWOOD: Hex = Hex::new(49, 10);
const FORTRESS_ROSECRANS: [Hex; 2] = [Hex::new(52, 31), Hex::new(51, 31)];
const MURFREESBORO: Hex = Hex::new(52, 32);
const MAPLE_GROVE: Hex = Hex::new(49, 34);
const SALEM: Hex = Hex::new(47, 30);
const CATALPA: Hex = Hex::new(50, 28);
const LYNNVILLE: Hex = Hex::new(4, 23);
const COLORED_CHURCH: Hex = Hex::new(3, 24);

// ----- flags ---------------------------------------------------------------------------------

/// Flag (HSN Sc 2): the turn (1–4) an undemoralized Confederate unit first entered or retreated
/// into Columbia (1715).
pub const SC2_COLUMBIA_ENTERED: &str = "sc2/columbia-entered-turn";
/// Flag (HSN Sc 2): the turn (1–4) every surviving Union wagon on the map was first within six
/// hexes of Franklin (4010), which voids the Columbia penalty for good.
pub const SC2_WAGONS_NEAR_FRANKLIN: &str = "sc2/wagons-near-franklin-turn";
/// Flag (HSN Sc 4): set to 1 once an undemoralized Confederate unit entered Franklin (4010) on
/// Turn 1.
pub const SC4_FRANKLIN_ENTERED: &str = "sc4/franklin-entered-turn-1";
/// Flag (HSN Sc 6): 1 if an undemoralized Union infantry unit occupied Brentwood (4910) at the
/// last observation of Turn 1 (the end-of-turn call), 0 if not.
pub const SC6_BRENTWOOD_TURN_1: &str = "sc6/brentwood-held-end-of-turn-1";
/// Flag prefix (HSN Sc 5): one flag `sc5/blockhouse-destroyed/XXYY` per blockhouse destroyed
/// on the Blockhouse Table, valued with the turn.
pub const BLOCKHOUSE_DESTROYED: &str = "sc5/blockhouse-destroyed/";
/// Flag prefix of the units last seen in a watched hex: `watch/XXYY/<unit>`; `watch/XXYY`
/// itself says the hex has been watched since the set-up.
const WATCH: &str = "watch/";

// ----- the entry points -----------------------------------------------------------------------

/// Records in [`State::flags`] what the victory conditions need to remember: called by the
/// engine after every change of position (each hex moved, retreat step, advance, arrival) and
/// once at the end of each turn before the turn number advances. Cheap and deterministic: it
/// does nothing at all outside the turns of HSN Sc 2, 4 and 6 where a fact can arise.
pub fn observe(rules: &Gcacw, state: &mut State) {
    let mut flags = std::mem::take(&mut state.flags);
    record(rules, state, &mut flags);
    state.flags = flags;
}

/// Records a Destroyed result on the Sc 5 Blockhouse Table at `hex` (+6 Confederate VP).
pub fn record_blockhouse_destroyed(state: &mut State, hex: Hex) {
    let turn = i32::from(state.turn);
    state.flags.entry(format!("{BLOCKHOUSE_DESTROYED}{hex}")).or_insert(turn);
}

/// Whether the scenario's victory points read the station markers (GCACW 5.4): HSN Sc 2's
/// Brentwood station and HSN Sc 9's destroyed stations. Elsewhere burning a station scores
/// nothing, which spares the computer player a whole [`score`] per station it could burn.
#[must_use]
pub fn scores_stations(rules: &Gcacw) -> bool {
    let sc = rules.scenario();
    sc.victory
        .award
        .iter()
        .any(|a| matches!((sc.number, a.id.as_str()), (2, "brentwood-station") | (9, "station-destroyed")))
}

/// The victory points of the game as it stands: every award of the scenario evaluated and
/// itemised, the total and its victory level. Facts that [`observe`] has not yet seen in the
/// present position are taken into account as if it had (the state is not changed).
#[must_use]
pub fn score(rules: &Gcacw, state: &State) -> Score {
    let mut flags = state.flags.clone();
    record(rules, state, &mut flags);
    let sc = rules.scenario();
    let items: Vec<ScoreItem> = sc
        .victory
        .award
        .iter()
        .map(|a| {
            let (vp, detail) =
                evaluate(rules, state, &flags, sc.number, a).unwrap_or_else(|| (0.0, NOT_EVALUATED.to_string()));
            // `+ 0.0` turns a −0 (no loss × a negative award) into 0.
            ScoreItem { id: a.id.clone(), text: a.text.clone(), detail, vp: vp + 0.0 }
        })
        .collect();
    let total = items.iter().map(|i| i.vp).sum();
    let mut items = items;
    let mut result = level(&sc.victory, total);
    // HSN Sc 9 Automatic Victory: the game ended in the VP Phase of that turn, whatever the VP.
    if let Some(turn) = flags.get(crate::vp_phase::FLAG_AUTOMATIC) {
        if let Some(won) = automatic_result(rules) {
            items.push(ScoreItem {
                id: "automatic-victory".into(),
                text: "Automatic Victory: an undemoralized Confederate infantry division in Nashville (5706 or 5707) in a VP Phase.".into(),
                detail: format!("met in the VP Phase of Turn {turn}: the game ended at once in a {won}"),
                vp: 0.0,
            });
            result = won;
        }
    }
    Score { side: sc.victory.side, items, total, level: result }
}

/// The result of the scenario's Automatic Victory rule, if it has one.
fn automatic_result(rules: &Gcacw) -> Option<String> {
    rules.scenario().rules().find_map(|r| match r {
        RuleKind::AutomaticVictory { result, .. } => Some(result.clone()),
        _ => None,
    })
}

/// The victory level of a VP total: the level with the highest `min` the total reaches (a level
/// without `min` is the lowest). With whole totals this is exactly the "n to m" rows of the
/// rulebook's tables.
#[must_use]
pub fn level(victory: &Victory, total: f64) -> String {
    victory
        .level
        .iter()
        .filter(|l| l.min.is_none_or(|m| total >= m))
        .max_by(|a, b| a.min.unwrap_or(f64::NEG_INFINITY).total_cmp(&b.min.unwrap_or(f64::NEG_INFINITY)))
        .map_or_else(String::new, |l| l.result.clone())
}

// ----- observation ------------------------------------------------------------------------------

fn record(rules: &Gcacw, state: &State, flags: &mut BTreeMap<String, i32>) {
    let turn = state.turn;
    match rules.scenario().number {
        // HSN Sc 2: "-12 if an undemoralized Confederate unit of any type enters or retreats
        // into Columbia on Turn 4 or earlier"; voided if at any time on Turn 4 or earlier all
        // surviving Union wagons on the map are within six hexes of Franklin.
        2 if turn <= 4 => {
            let entered = entries(rules, state, flags, COLUMBIA, Side::Confederate);
            if !flags.contains_key(SC2_COLUMBIA_ENTERED) && entered.iter().any(|&u| state.units[u].demoralized == 0) {
                flags.insert(SC2_COLUMBIA_ENTERED.to_string(), i32::from(turn));
            }
            if !flags.contains_key(SC2_WAGONS_NEAR_FRANKLIN) && wagons_near_franklin(rules, state) {
                flags.insert(SC2_WAGONS_NEAR_FRANKLIN.to_string(), i32::from(turn));
            }
        }
        // HSN Sc 4: "-40 if an undemoralized Confederate unit enters Franklin on Turn 1".
        4 if turn == 1 => {
            let entered = entries(rules, state, flags, FRANKLIN, Side::Confederate);
            if entered.iter().any(|&u| state.units[u].demoralized == 0) {
                flags.insert(SC4_FRANKLIN_ENTERED.to_string(), 1);
            }
        }
        // HSN Sc 6: "+10 if at the end of Turn 1 an undemoralized Union infantry unit occupies
        // Brentwood": the last observation of Turn 1 is the end-of-turn one.
        6 if turn == 1 => {
            let held =
                occupies(rules, state, BRENTWOOD, Who::side(Side::Union).ty(CounterType::Infantry).undemoralized());
            flags.insert(SC6_BRENTWOOD_TURN_1.to_string(), i32::from(held));
        }
        _ => {}
    }
}

/// The units of `side` that have entered `hex` since the last observation: in it now and not
/// in it then (before the first observation, "then" is the set-up). A unit staying in the hex
/// does not enter it again, so a unit that routed in and later recovers from demoralization
/// there has not entered it undemoralized (docs/rulings.md, HSN Sc 2).
fn entries(rules: &Gcacw, state: &State, flags: &mut BTreeMap<String, i32>, hex: Hex, side: Side) -> Vec<usize> {
    let watched = format!("{WATCH}{hex}");
    let prefix = format!("{watched}/");
    let before: Vec<usize> = if flags.contains_key(&watched) {
        flags
            .range::<str, _>((std::ops::Bound::Included(prefix.as_str()), std::ops::Bound::Unbounded))
            .take_while(|(k, _)| k.starts_with(&prefix))
            .filter_map(|(k, _)| k[prefix.len()..].parse().ok())
            .collect()
    } else {
        (0..state.units.len())
            .filter(|&u| rules.unit_side(state, u) == side && setup_hex(rules, state, u) == Some(hex))
            .collect()
    };
    let now: Vec<usize> =
        rules.on_map(state).filter(|&(u, h)| h == hex && rules.unit_side(state, u) == side).map(|(u, _)| u).collect();
    let entered: Vec<usize> = now.iter().copied().filter(|u| !before.contains(u)).collect();
    if !flags.contains_key(&watched) || before.len() != now.len() || !entered.is_empty() {
        for u in &before {
            flags.remove(&format!("{prefix}{u}"));
        }
        for u in &now {
            flags.insert(format!("{prefix}{u}"), 1);
        }
        flags.insert(watched, 1);
    }
    entered
}

/// Where a unit was set up, if it was.
fn setup_hex(rules: &Gcacw, state: &State, u: usize) -> Option<Hex> {
    let id = rules.unit_id(state, u);
    rules.scenario().setup.iter().find(|r| r.counter == id).map(|r| r.hex)
}

/// HSN Sc 2: every Union wagon still on the map is six or fewer hexes from Franklin, and at
/// least one is (the rule speaks of "one or two" wagons eliminated: with none left there is no
/// wagon to be near Franklin, so the exception is not met — docs/rulings.md).
fn wagons_near_franklin(rules: &Gcacw, state: &State) -> bool {
    let wagons: Vec<Hex> = rules
        .on_map(state)
        .filter(|&(u, _)| rules.unit_side(state, u) == Side::Union && rules.unit_type(state, u) == CounterType::Wagon)
        .map(|(_, h)| h)
        .collect();
    !wagons.is_empty() && wagons.iter().all(|h| h.distance(FRANKLIN) <= 6)
}

// ----- shared helpers ---------------------------------------------------------------------------

/// Which units a condition is about: a side, optionally one unit type, divisions only,
/// undemoralized only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Who {
    /// Side.
    pub side: Side,
    /// Unit type, if restricted.
    pub ty: Option<CounterType>,
    /// Only divisions (counter size "division").
    pub division: bool,
    /// Only brigades (counter size "brigade").
    pub brigade: bool,
    /// Only units without a demoralization marker.
    pub undemoralized: bool,
}

impl Who {
    /// Every unit of a side.
    #[must_use]
    pub const fn side(side: Side) -> Who {
        Who { side, ty: None, division: false, brigade: false, undemoralized: false }
    }

    /// Only units of this type.
    #[must_use]
    pub const fn ty(self, ty: CounterType) -> Who {
        Who { ty: Some(ty), ..self }
    }

    /// Only divisions.
    #[must_use]
    pub const fn divisions(self) -> Who {
        Who { division: true, ..self }
    }

    /// Only brigades.
    #[must_use]
    pub const fn brigades(self) -> Who {
        Who { brigade: true, ..self }
    }

    /// Only undemoralized units.
    #[must_use]
    pub const fn undemoralized(self) -> Who {
        Who { undemoralized: true, ..self }
    }

    /// Whether unit `u` is one of them (wherever it is).
    #[must_use]
    pub fn matches(&self, rules: &Gcacw, state: &State, u: usize) -> bool {
        let c = rules.unit_counter(state, u);
        c.side == self.side
            && self.ty.is_none_or(|t| t == c.ty)
            && (!self.division || c.size == "division")
            && (!self.brigade || c.size == "brigade")
            && (!self.undemoralized || state.units[u].demoralized == 0)
    }

    /// A plural noun for details, e.g. "undemoralized Confederate cavalry brigades".
    fn noun(&self) -> String {
        let mut words = Vec::new();
        if self.undemoralized {
            words.push("undemoralized".to_string());
        }
        words.push(self.side.to_string());
        if let Some(t) = self.ty {
            words.push(format!("{t:?}").to_lowercase());
        }
        words.push(
            if self.division {
                "divisions"
            } else if self.brigade {
                "brigades"
            } else {
                "units"
            }
            .to_string(),
        );
        words.join(" ")
    }
}

/// The units on the map that match `who`, with their hexes.
pub fn units_of<'a>(rules: &'a Gcacw, state: &'a State, who: Who) -> impl Iterator<Item = (usize, Hex)> + 'a {
    rules.on_map(state).filter(move |&(u, _)| who.matches(rules, state, u))
}

/// Every unit (on the map or not) that matches `who`.
fn all_of(rules: &Gcacw, state: &State, who: Who) -> Vec<usize> {
    (0..state.units.len()).filter(|&u| who.matches(rules, state, u)).collect()
}

/// Whether a unit matching `who` occupies `hex`.
#[must_use]
pub fn occupies(rules: &Gcacw, state: &State, hex: Hex, who: Who) -> bool {
    units_of(rules, state, who).any(|(_, h)| h == hex)
}

/// The units matching `who` within `n` hexes of `center` (hex distance, whatever the terrain).
#[must_use]
pub fn within(rules: &Gcacw, state: &State, center: Hex, n: u16, who: Who) -> Vec<usize> {
    units_of(rules, state, who).filter(|&(_, h)| h.distance(center) <= n).map(|(u, _)| u).collect()
}

/// The combined Combat value of the units matching `who` in `hex` (entrenchment ignored).
#[must_use]
pub fn combined_cv(rules: &Gcacw, state: &State, hex: Hex, who: Who) -> Half {
    units_of(rules, state, who).filter(|&(_, h)| h == hex).map(|(u, _)| rules.combat_value(state, u)).sum()
}

/// Whether a unit has been destroyed: eliminated, or off the map with no Manpower after having
/// been on it. Parts folded into their division by HSN Sc 2 Union Consolidation are not
/// destroyed (docs/rulings.md).
#[must_use]
pub fn destroyed(rules: &Gcacw, state: &State, u: usize) -> bool {
    let unit = &state.units[u];
    if unit.eliminated {
        return true;
    }
    // A unit not yet arrived keeps its arrival Manpower, so no Manpower off the map means it
    // has been on the map and left it.
    unit.hex.is_none()
        && unit.manpower == 0
        && !consolidated_part(rules, state, u)
        && !crate::substitute::withdrawn(rules, state, u)
}

fn consolidated_part(rules: &Gcacw, state: &State, u: usize) -> bool {
    let id = rules.unit_id(state, u);
    rules.scenario().rules().any(|r| match r {
        RuleKind::Consolidation { groups, .. } => groups.iter().any(|g| g.parts.iter().any(|p| p == id)),
        _ => false,
    })
}

/// The causes of Manpower loss that score VP in every HSN Basic scenario: "lost in combat,
/// retreat, or cavalry retreat (not in extended march, force march, or moving from one enemy
/// ZOC to another)"; and a unit eliminated in a flooded provisional swamp, whose loss GCACW 12.0
/// says scores.
#[must_use]
pub const fn scoring_cause(cause: LossCause) -> bool {
    matches!(cause, LossCause::Combat | LossCause::Retreat | LossCause::CavalryRetreat | LossCause::RainSwamp)
}

/// Manpower lost by `side`'s units: points that count, with a detail of the counted and the
/// uncounted losses by cause. `counts` says whether a loss of a unit type and cause counts.
#[must_use]
pub fn manpower_lost(
    rules: &Gcacw,
    state: &State,
    side: Side,
    counts: impl Fn(CounterType, LossCause) -> bool,
) -> (u32, String) {
    let causes = [
        LossCause::Combat,
        LossCause::Retreat,
        LossCause::CavalryRetreat,
        LossCause::ExtendedMarch,
        LossCause::ForceMarch,
        LossCause::ZocToZoc,
        LossCause::RainSwamp,
    ];
    let mut counted = [0u32; 7];
    let mut not = [0u32; 7];
    for l in &state.losses {
        if l.unit >= state.units.len() || rules.unit_side(state, l.unit) != side {
            continue;
        }
        let Some(k) = causes.iter().position(|&c| c == l.cause) else { continue };
        if counts(rules.unit_type(state, l.unit), l.cause) {
            counted[k] += u32::from(l.amount);
        } else {
            not[k] += u32::from(l.amount);
        }
    }
    let list = |v: &[u32; 7]| {
        causes
            .iter()
            .zip(v)
            .filter(|(_, n)| **n > 0)
            .map(|(c, n)| format!("{} {n}", cause_name(*c)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let total: u32 = counted.iter().sum();
    let skipped: u32 = not.iter().sum();
    let mut detail = format!("{side} Manpower lost: {total} counted");
    if total > 0 {
        detail.push_str(&format!(" ({})", list(&counted)));
    }
    if skipped > 0 {
        detail.push_str(&format!("; {skipped} not counted ({})", list(&not)));
    }
    (total, detail)
}

const fn cause_name(c: LossCause) -> &'static str {
    match c {
        LossCause::Combat => "combat",
        LossCause::Retreat => "retreat",
        LossCause::CavalryRetreat => "cavalry retreat",
        LossCause::ExtendedMarch => "extended march",
        LossCause::ForceMarch => "force march",
        LossCause::ZocToZoc => "ZOC to ZOC",
        LossCause::RainSwamp => "swamp in the rain",
        LossCause::Consolidation => "consolidation",
        LossCause::RemovedFromPlay => "removed from play",
    }
}

/// A VP number as the rulebook prints it: "2", "1½", "−½".
#[must_use]
pub fn vp_text(v: f64) -> String {
    let halves = (v * 2.0).round() as i64;
    let sign = if halves < 0 { "−" } else { "" };
    let a = halves.abs();
    match (a / 2, a % 2) {
        (w, 0) => format!("{sign}{w}"),
        (0, _) => format!("{sign}½"),
        (w, _) => format!("{sign}{w}½"),
    }
}

fn names(rules: &Gcacw, state: &State, units: &[usize]) -> String {
    if units.is_empty() {
        return "none".to_string();
    }
    units.iter().map(|&u| rules.unit_name(state, u)).collect::<Vec<_>>().join(", ")
}

fn label(rules: &Gcacw, hex: Hex) -> String {
    rules.map().label(hex)
}

/// A per-unit award: `n` units × `per` VP.
fn per_unit(per: f64, units: &[usize], rules: &Gcacw, state: &State, what: &str) -> (f64, String) {
    let n = units.len();
    (per * n as f64, format!("{n} {what} × {} ({})", vp_text(per), names(rules, state, units)))
}

/// An all-or-nothing award.
fn flat(per: f64, met: bool, detail: String) -> (f64, String) {
    (if met { per } else { 0.0 }, detail)
}

/// Occupation award: a unit matching `who` occupies one of `hexes`; awarded once at most.
fn occupation(rules: &Gcacw, state: &State, per: f64, hexes: &[Hex], who: Who) -> (f64, String) {
    let held: Vec<String> = hexes
        .iter()
        .filter_map(|&h| {
            let us: Vec<usize> = units_of(rules, state, who).filter(|&(_, at)| at == h).map(|(u, _)| u).collect();
            (!us.is_empty()).then(|| format!("{} in {}", names(rules, state, &us), label(rules, h)))
        })
        .collect();
    let places: Vec<String> = hexes.iter().map(|&h| label(rules, h)).collect();
    if held.is_empty() {
        (0.0, format!("no {} in {}", who.noun(), places.join(" or ")))
    } else {
        (per, held.join("; "))
    }
}

/// HSN Sc 5: undemoralized Confederate units with a combined Combat value of 1 or more
/// (entrenchment ignored) in one of `hexes` (each hex on its own — docs/rulings.md).
fn held_cv1(rules: &Gcacw, state: &State, hexes: &[Hex]) -> Option<(Hex, Half)> {
    let who = Who::side(Side::Confederate).undemoralized();
    hexes.iter().map(|&h| (h, combined_cv(rules, state, h, who))).find(|(_, cv)| *cv >= Half::whole(1))
}

fn sc5_hold(rules: &Gcacw, state: &State, per: f64, hexes: &[Hex]) -> (f64, String) {
    let places: Vec<String> = hexes.iter().map(|&h| label(rules, h)).collect();
    match held_cv1(rules, state, hexes) {
        Some((h, cv)) => (per, format!("undemoralized Confederate Combat {cv} in {}", label(rules, h))),
        None => (0.0, format!("no undemoralized Confederate Combat of 1 or more in {}", places.join(" or "))),
    }
}

// ----- lines of communication -------------------------------------------------------------------

/// HSN Sc 2, 3, 4: by map index, whether undemoralized Confederate units there have a combined
/// Combat value of 3 or more, their cavalry's combined value halved and rounded down.
fn loc_blockers(rules: &Gcacw, state: &State) -> Vec<bool> {
    let map = rules.map();
    let n = map.index_len();
    let (mut inf, mut cav) = (vec![0u16; n], vec![0u16; n]);
    for (u, h) in units_of(rules, state, Who::side(Side::Confederate).undemoralized()) {
        let Some(i) = map.index(h) else { continue };
        let cv = rules.combat_value(state, u).halves();
        if rules.unit_type(state, u) == CounterType::Cavalry {
            cav[i] += cv;
        } else {
            inf[i] += cv;
        }
    }
    // In half points: cavalry halved and rounded down to a whole point is (cav / 4) * 2.
    (0..n).map(|i| inf[i] + cav[i] / 4 * 2 >= 6).collect()
}

/// The march costs of unit `u` for tracing an LOC: its own Terrain Chart costs and wagon
/// penalties, the weather of the turn, the bridges as they stand and the hexes its side may not
/// enter; but no zone of control, no enemy and no friendly-occupied penalty (an LOC is not a
/// march — docs/rulings.md).
fn loc_context(rules: &Gcacw, state: &State, u: usize) -> MoveContext {
    let mut ctx = MoveContext::new(rules, state, u);
    let n = rules.map().index_len();
    ctx.enemy_zoc = vec![Zoc::None; n];
    ctx.occupant = vec![None; n];
    ctx.friendly_cv = vec![Half::ZERO; n];
    ctx.infantry = vec![false; n];
    ctx.wagon = vec![false; n];
    ctx.confined = None;
    ctx
}

/// The cheapest path cost (half MP) from `start` to one of `targets` within `budget` half MP,
/// never entering a `closed` hex (by map index); the start hex costs nothing. Wagons pay their
/// one-time +1 MP the first time the path crosses a non-pike hexside (HSN-B 2.2), so the search
/// runs over (hex, penalty paid).
fn path_cost(
    rules: &Gcacw,
    ctx: &MoveContext,
    start: Hex,
    targets: &[Hex],
    budget: u16,
    closed: &dyn Fn(usize) -> bool,
) -> Option<Half> {
    let map = rules.map();
    let si = map.index(start)?;
    // A hex from which even the cheapest steps straight to the nearest target would overrun the
    // budget lies on no path within it: the search leaves it out, and finds the same cost.
    let floor = u32::from(rules.charts().cheapest_step().halves());
    let hopeless = |h: Hex, cost: u16| {
        let near = targets.iter().map(|&t| h.distance(t)).min().unwrap_or(u16::MAX);
        u32::from(cost) + u32::from(near) * floor > u32::from(budget)
    };
    if hopeless(start, 0) {
        return None;
    }
    let wagon = ctx.mover == CounterType::Wagon;
    let mut best = vec![u16::MAX; map.index_len() * 2];
    let s0 = si * 2 + usize::from(!wagon);
    best[s0] = 0;
    let mut heap = BinaryHeap::from([Reverse((0u16, s0))]);
    while let Some(Reverse((cost, s))) = heap.pop() {
        if cost > best[s] {
            continue;
        }
        let (i, paid) = (s / 2, s % 2 == 1);
        let hex = map.hex_at(i);
        if targets.contains(&hex) {
            return Some(Half::from_halves(cost));
        }
        for (_, n) in map.neighbors(hex) {
            let Some(ni) = map.index(n) else { continue };
            if closed(ni) {
                continue;
            }
            let Some(step) = movement::step(rules, ctx, hex, n, false, false, paid) else { continue };
            let c = cost.saturating_add(step.cost.halves());
            if hopeless(n, c) {
                continue;
            }
            let np = paid || !map.hexside(hex, n).contains(Hexside::PIKE);
            let ns = ni * 2 + usize::from(np);
            if c < best[ns] {
                best[ns] = c;
                heap.push(Reverse((c, ns)));
            }
        }
    }
    None
}

/// Whether a route of `bits` (e.g. a pike) crosses any hexside of `hex`.
fn route_hex(rules: &Gcacw, hex: Hex, bits: Hexside) -> bool {
    let map = rules.map();
    map.neighbors(hex).any(|(_, n)| map.hexside(hex, n).intersects(bits))
}

/// HSN Sc 2, 3, LOC method 2: at most three hexes "regardless of terrain" to a pike hex (or
/// the unit's own pike hex), then at most twelve pike hexes along the pike to a target. Returns
/// the hop and pike lengths of the shortest pike route found.
fn pike_route(
    rules: &Gcacw,
    ctx: &MoveContext,
    start: Hex,
    targets: &[Hex],
    closed: &dyn Fn(usize) -> bool,
) -> Option<(u16, u16)> {
    route_trace(rules, ctx, start, Hexside::PIKE, 12, &|h| targets.contains(&h), closed)
}

/// An LOC by route: at most three hexes "regardless of terrain" to a hex on a route of `bits`
/// (or the unit's own), then at most `max_len` hexes along hexsides of those routes to a hex
/// where `target` holds, entering no `closed` hex. Returns the hop and route lengths of the
/// shortest route found (HSN Sc 2, 3 with the pike and 12 hexes; HSN Sc 9 without a limit).
fn route_trace(
    rules: &Gcacw,
    ctx: &MoveContext,
    start: Hex,
    bits: Hexside,
    max_len: u16,
    target: &dyn Fn(Hex) -> bool,
    closed: &dyn Fn(usize) -> bool,
) -> Option<(u16, u16)> {
    let map = rules.map();
    // The hop ignores terrain and hexsides; it only needs land the side may enter (ruling).
    let hop = algorithms::within(map, start, 3, |h| {
        map.index(h).is_some_and(|i| !closed(i))
            && map.terrain(h).is_some_and(|t| t != Terrain::Water)
            && !rules.prohibited(ctx.side, h)
    });
    let mut dist: Vec<Option<(u16, u16)>> = vec![None; map.index_len()];
    let mut queue = VecDeque::new();
    for &(h, d) in &hop {
        if route_hex(rules, h, bits) {
            let i = map.index(h)?;
            if dist[i].is_none() {
                dist[i] = Some((d, 0));
                queue.push_back(h);
            }
        }
    }
    // Breadth first from every pike hex of the hop: the first target reached has the shortest
    // pike length.
    while let Some(h) = queue.pop_front() {
        let (d, p) = dist[map.index(h)?]?;
        if target(h) {
            return Some((d, p));
        }
        if p >= max_len {
            continue;
        }
        for (_, n) in map.neighbors(h) {
            let Some(ni) = map.index(n) else { continue };
            if dist[ni].is_some() || closed(ni) || !map.hexside(h, n).intersects(bits) {
                continue;
            }
            // Along the pike only where a march could go (a standing bridge, the side's hexes).
            if movement::step(rules, ctx, h, n, false, false, true).is_none() {
                continue;
            }
            dist[ni] = Some((d, p + 1));
            queue.push_back(n);
        }
    }
    None
}

/// HSN Sc 2 and 3: how unit `u` reaches `targets` — by occupying one, by a path of at most 10 MP,
/// or by at most 3 hexes to a pike and at most 12 pike hexes; never entering a hex of
/// undemoralized Confederate units with combined Combat of 3 or more (cavalry halved).
fn franklin_loc(rules: &Gcacw, state: &State, u: usize, targets: &[Hex], blocked: &[bool]) -> Option<String> {
    let start = state.units[u].hex?;
    if targets.contains(&start) {
        return Some(format!("occupies {}", label(rules, start)));
    }
    let ctx = loc_context(rules, state, u);
    let closed = |i: usize| blocked[i];
    if let Some(c) = path_cost(rules, &ctx, start, targets, 20, &closed) {
        return Some(format!("{c} MP path"));
    }
    pike_route(rules, &ctx, start, targets, &closed)
        .map(|(hop, pike)| format!("{hop} hexes to the pike, then {pike} pike hexes"))
}

fn loc_award(
    rules: &Gcacw,
    state: &State,
    per: f64,
    targets: &[Hex],
    check: &dyn Fn(usize) -> Option<String>,
) -> (f64, String) {
    let union = Who::side(Side::Union);
    let mut units = all_of(rules, state, union.ty(CounterType::Infantry).divisions());
    units.extend(all_of(rules, state, union.ty(CounterType::Wagon)));
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    for u in units {
        match check(u) {
            Some(how) => yes.push(format!("{} ({how})", rules.unit_name(state, u))),
            None => no.push(rules.unit_name(state, u)),
        }
    }
    let places: Vec<String> = targets.iter().map(|&h| label(rules, h)).collect();
    let n = yes.len();
    let mut detail = format!("{n} × {} with an LOC to {}: {}", vp_text(per), places.join(" or "), yes.join(", "));
    if n == 0 {
        detail = format!("no Union division or wagon traces an LOC to {}", places.join(" or "));
    }
    if !no.is_empty() {
        detail.push_str(&format!("; none for {}", no.join(", ")));
    }
    (per * n as f64, detail)
}

/// HSN Sc 4, by map index: the hexes an LOC to Nashville may not enter — those occupied by, or
/// in the ZOC of, undemoralized Confederate units with combined Combat of 3 or more (cavalry
/// halved), unless an undemoralized Union infantry or cavalry unit occupies the ZOC hex. Any
/// ZOC counts, restricted or normal (docs/rulings.md).
fn nashville_closed(rules: &Gcacw, state: &State) -> Vec<bool> {
    let map = rules.map();
    let blocked = loc_blockers(rules, state);
    let mut screened = vec![false; map.index_len()];
    for (u, h) in units_of(rules, state, Who::side(Side::Union).undemoralized()) {
        if matches!(rules.unit_type(state, u), CounterType::Infantry | CounterType::Cavalry) {
            if let Some(i) = map.index(h) {
                screened[i] = true;
            }
        }
    }
    let blocking: Vec<Hex> = (0..blocked.len()).filter(|&i| blocked[i]).map(|i| map.hex_at(i)).collect();
    let zoc = zoc::grid(map, &state.bridges, blocking, state.rain, crate::combat::unfordable(rules, state));
    (0..blocked.len()).map(|i| blocked[i] || (zoc[i] != Zoc::None && !screened[i])).collect()
}

/// HSN Sc 4: unit `u` traces a path of at most 13 MP to a Nashville city hex (the start hex not
/// counted, the Nashville hex counted) through no `closed` hex; no +1 MP to leave a ZOC, no
/// friendly-occupied penalty, the wagon's one-time non-pike +1 MP still paid. A unit in
/// Nashville traces it (0 MP).
fn nashville_loc(rules: &Gcacw, state: &State, u: usize, closed: &[bool]) -> Option<String> {
    let start = state.units[u].hex?;
    let ctx = loc_context(rules, state, u);
    path_cost(rules, &ctx, start, &NASHVILLE, 26, &|i| closed[i]).map(|c| {
        if c == Half::ZERO {
            format!("in {}", label(rules, start))
        } else {
            format!("{c} MP path")
        }
    })
}

/// HSN Sc 6, by map index: the hexes a Confederate LOC may not enter — Union-occupied hexes,
/// hexes in the ZOC (restricted or normal) of undemoralized Union units unless an undemoralized
/// Confederate unit occupies them, water, and hexes the Confederates may not enter.
fn sc6_closed(rules: &Gcacw, state: &State) -> Vec<bool> {
    let map = rules.map();
    let n = map.index_len();
    let mut union = vec![false; n];
    for (_, h) in units_of(rules, state, Who::side(Side::Union)) {
        if let Some(i) = map.index(h) {
            union[i] = true;
        }
    }
    let mut screen = vec![false; n];
    for (_, h) in units_of(rules, state, Who::side(Side::Confederate).undemoralized()) {
        if let Some(i) = map.index(h) {
            screen[i] = true;
        }
    }
    let sources: Vec<Hex> = units_of(rules, state, Who::side(Side::Union).undemoralized()).map(|(_, h)| h).collect();
    let zoc = zoc::grid(map, &state.bridges, sources, state.rain, crate::combat::unfordable(rules, state));
    (0..n)
        .map(|i| {
            let hex = map.hex_at(i);
            union[i]
                || (zoc[i] != Zoc::None && !screen[i])
                || map.terrain(hex).is_none_or(|t| t == Terrain::Water)
                || rules.prohibited(Side::Confederate, hex)
        })
        .collect()
}

/// HSN Sc 6: whether a Confederate unit in `start` traces an LOC to Brentwood or Columbia: a path
/// of any length through no `closed` hex. Terrain does not matter, but the path never crosses
/// the Cumberland (docs/rulings.md R20) or an all-water hexside.
fn sc6_loc(rules: &Gcacw, start: Hex, closed: &[bool]) -> bool {
    let map = rules.map();
    let Some(si) = map.index(start) else { return false };
    let mut seen = vec![false; map.index_len()];
    seen[si] = true;
    let mut queue = VecDeque::from([start]);
    while let Some(h) = queue.pop_front() {
        if h == BRENTWOOD || h == COLUMBIA {
            return true;
        }
        for (_, nb) in map.neighbors(h) {
            let Some(i) = map.index(nb) else { continue };
            if seen[i] || closed[i] || map.hexside(h, nb).intersects(Hexside::MAJOR_RIVER | Hexside::ALL_WATER) {
                continue;
            }
            seen[i] = true;
            queue.push_back(nb);
        }
    }
    false
}

// ----- the awards ------------------------------------------------------------------------------

/// Evaluates one award: its VP and what was counted, or `None` if the code does not know it.
fn evaluate(
    rules: &Gcacw,
    state: &State,
    flags: &BTreeMap<String, i32>,
    number: u16,
    award: &Award,
) -> Option<(f64, String)> {
    let per = award.vp;
    let union = Who::side(Side::Union);
    let confederate = Who::side(Side::Confederate);
    let standard = |side: Side| {
        let (n, detail) = manpower_lost(rules, state, side, |_, c| scoring_cause(c));
        (per * f64::from(n), detail)
    };
    Some(match (number, award.id.as_str()) {
        // ---- Sc 1: Here Come The Rebels! ----
        (1, "columbia") => occupation(rules, state, per, &[COLUMBIA], confederate.undemoralized()),
        (1, "fort-mizner") => occupation(rules, state, per, &[FORT_MIZNER], confederate.undemoralized()),
        (1, "union-infantry-away") => {
            // Every Union infantry unit not within 3 hexes of Columbia, destroyed ones included.
            let infantry = all_of(rules, state, union.ty(CounterType::Infantry));
            let away: Vec<usize> = infantry
                .into_iter()
                .filter(|&u| destroyed(rules, state, u) || state.units[u].hex.is_none_or(|h| h.distance(COLUMBIA) > 3))
                .collect();
            per_unit(per, &away, rules, state, "Union infantry units destroyed or more than 3 hexes from Columbia")
        }
        (1, "cavalry-north-of-duck") => {
            // ½ per brigade, rounded up on the total (digest T10: 3 brigades → 1½ → 2).
            let north: Vec<usize> =
                units_of(rules, state, confederate.ty(CounterType::Cavalry).brigades().undemoralized())
                    .filter(|&(_, h)| !rules.south_of_duck(h))
                    .map(|(u, _)| u)
                    .collect();
            let raw = per * north.len() as f64;
            let vp = raw.ceil();
            let mut detail = format!("{} brigades × {} = {}", north.len(), vp_text(per), vp_text(raw));
            if vp != raw {
                detail.push_str(&format!(", rounded up to {}", vp_text(vp)));
            }
            detail.push_str(&format!(" ({})", names(rules, state, &north)));
            (vp, detail)
        }
        (1 | 4 | 5 | 6 | 7 | 8, "union-manpower-lost") => standard(Side::Union),
        (9, id) if crate::vp_phase::PHASE_AWARDS.contains(&id) => phase_award(flags, id, per),
        (9, "loc-south") => sc9_loc_award(rules, state, per, true),
        (9, "loc-north") => sc9_loc_award(rules, state, per, false),
        (9, "station-destroyed") => {
            let gone: Vec<String> = SC9_STATIONS
                .iter()
                .filter(|h| state.stations.get(h) == Some(&crate::state::StationMark::Destroyed))
                .map(|&h| label(rules, h))
                .collect();
            let n = gone.len();
            let list = if gone.is_empty() { "none".to_string() } else { gone.join(", ") };
            (per * n as f64, format!("{n} stations destroyed × {} ({list})", vp_text(per)))
        }
        (9, "union-manpower-lost") => {
            // Wagon losses count for any reason; voluntary destruction and the winter removal are
            // no losses at all (the wagon leaves with its Manpower), so they never count here.
            let (n, detail) =
                manpower_lost(rules, state, Side::Union, |t, c| t == CounterType::Wagon || scoring_cause(c));
            (per * f64::from(n), format!("{detail}; wagon losses count for any reason"))
        }
        (9, "wagon-not-in-nashville") => {
            let wagons = all_of(rules, state, union.ty(CounterType::Wagon));
            let out: Vec<usize> = wagons
                .into_iter()
                .filter(|&u| {
                    !flags.contains_key(&format!("{}{}", crate::wagons::FLAG_NASHVILLE, rules.unit_id(state, u)))
                })
                .collect();
            let (vp, mut detail) =
                per_unit(per, &out, rules, state, "Union wagon trains that have not entered Nashville");
            if state.campaign.winter.is_none() {
                detail.push_str(" (so far: winter has not started)");
            }
            (vp, detail)
        }
        (9, "wagon-in-murfreesboro") => {
            let wagons = all_of(rules, state, union.ty(CounterType::Wagon));
            let inside: Vec<usize> = wagons
                .into_iter()
                .filter(|&u| {
                    flags.contains_key(&format!("{}{}", crate::wagons::FLAG_MURFREESBORO, rules.unit_id(state, u)))
                })
                .collect();
            per_unit(per, &inside, rules, state, "Union wagon trains that entered Murfreesboro or Fortress Rosecrans")
        }
        (9, "wagon-destroyed-or-winter") => {
            let mut parts = Vec::new();
            let mut points = 0i32;
            for u in all_of(rules, state, union.ty(CounterType::Wagon)) {
                let id = rules.unit_id(state, u);
                for (prefix, how) in
                    [(crate::wagons::FLAG_DESTROYED, "destroyed"), (crate::wagons::FLAG_WINTER, "removed at winter")]
                {
                    if let Some(&mp) = flags.get(&format!("{prefix}{id}")) {
                        points += mp;
                        parts.push(format!("{} {how} with Manpower {mp}", rules.unit_name(state, u)));
                    }
                }
            }
            let list = if parts.is_empty() { "none".to_string() } else { parts.join(", ") };
            (per * f64::from(points), format!("{points} Manpower × {} ({list})", vp_text(per)))
        }
        (1..=9, "confederate-manpower-lost") => standard(Side::Confederate),

        // ---- Sc 2: The Race For Columbia ----
        (2, "franklin-nashville-loc") => {
            let blocked = loc_blockers(rules, state);
            let targets = [FRANKLIN, NASHVILLE[0], NASHVILLE[1]];
            loc_award(rules, state, per, &targets, &|u| franklin_loc(rules, state, u, &targets, &blocked))
        }
        (2, "union-manpower-lost") => {
            // Wagon losses count for any reason (extended march and ZOC to ZOC included).
            let (n, detail) =
                manpower_lost(rules, state, Side::Union, |t, c| t == CounterType::Wagon || scoring_cause(c));
            (per * f64::from(n), format!("{detail}; wagon losses count for any reason"))
        }
        (2, "brentwood-station") => {
            let mark = state.stations.get(&BRENTWOOD);
            flat(
                per,
                mark.is_some(),
                match mark {
                    Some(m) => format!("Brentwood station marker: {m:?}"),
                    None => "Brentwood station undamaged".to_string(),
                },
            )
        }
        (2, "columbia-early") => {
            let entered = flags.get(SC2_COLUMBIA_ENTERED);
            let voided = flags.get(SC2_WAGONS_NEAR_FRANKLIN);
            match (entered, voided) {
                (_, Some(t)) => {
                    (0.0, format!("voided: every surviving Union wagon was within 6 hexes of Franklin on Turn {t}"))
                }
                (Some(t), None) => (per, format!("an undemoralized Confederate unit entered Columbia on Turn {t}")),
                (None, None) => (0.0, "no undemoralized Confederate unit entered Columbia on Turns 1–4".to_string()),
            }
        }

        // ---- Sc 3: A Great Chance Was Lost ----
        (3, "franklin-loc") => {
            let blocked = loc_blockers(rules, state);
            let targets = [FRANKLIN];
            loc_award(rules, state, per, &targets, &|u| franklin_loc(rules, state, u, &targets, &blocked))
        }

        // ---- Sc 4: We Will Make The Fight ----
        (4, "franklin-turn-1") => flat(
            per,
            flags.contains_key(SC4_FRANKLIN_ENTERED),
            if flags.contains_key(SC4_FRANKLIN_ENTERED) {
                "an undemoralized Confederate unit entered Franklin on Turn 1".to_string()
            } else {
                "no undemoralized Confederate unit entered Franklin on Turn 1".to_string()
            },
        ),
        (4, "nashville-loc") => {
            let closed = nashville_closed(rules, state);
            loc_award(rules, state, per, &NASHVILLE, &|u| nashville_loc(rules, state, u, &closed))
        }

        // ---- Sc 5: The Enemy Was Badly Whipped ----
        (5, "fortress-rosecrans") => sc5_hold(rules, state, per, &FORTRESS_ROSECRANS),
        (5, "murfreesboro") => sc5_hold(rules, state, per, &[MURFREESBORO]),
        (5, "maple-grove") => {
            let (vp, detail) = sc5_hold(rules, state, per, &[MAPLE_GROVE]);
            if vp != 0.0 && held_cv1(rules, state, &[MURFREESBORO]).is_some() {
                (0.0, format!("{detail}, but Murfreesboro is held too: no Maple Grove VP"))
            } else {
                (vp, detail)
            }
        }
        (5, "salem") => sc5_hold(rules, state, per, &[SALEM]),
        (5, "catalpa") => sc5_hold(rules, state, per, &[CATALPA]),
        (5, "blockhouse-destroyed") => {
            let hexes: Vec<&str> = flags.keys().filter_map(|k| k.strip_prefix(BLOCKHOUSE_DESTROYED)).collect();
            let n = hexes.len();
            let list = if hexes.is_empty() { "none".to_string() } else { hexes.join(", ") };
            (per * n as f64, format!("{n} blockhouses destroyed × {} ({list})", vp_text(per)))
        }

        // ---- Sc 6: The Battle Of Nashville ----
        (6, "brentwood-clear") => {
            let (held, adjacent) = sc6_brentwood(rules, state);
            flat(per, held && adjacent.is_empty(), sc6_brentwood_detail(rules, state, held, &adjacent))
        }
        (6, "brentwood-contested") => {
            let (held, adjacent) = sc6_brentwood(rules, state);
            flat(per, held && !adjacent.is_empty(), sc6_brentwood_detail(rules, state, held, &adjacent))
        }
        (6, "williamson-next-to-brentwood") => {
            // Only if no Brentwood occupation VP (the +30 or +15) are gained.
            let (held, _) = sc6_brentwood(rules, state);
            if held {
                (0.0, "Brentwood is held: no VP for the hexes around it".to_string())
            } else {
                let map = rules.map();
                let who = union.ty(CounterType::Infantry).undemoralized();
                let hexes: Vec<String> = map
                    .neighbors(BRENTWOOD)
                    .map(|(_, h)| h)
                    .filter(|&h| map.county(h) == Some("Williamson") && occupies(rules, state, h, who))
                    .map(|h| h.to_string())
                    .collect();
                let n = hexes.len();
                let list = if hexes.is_empty() { "none".to_string() } else { hexes.join(", ") };
                (
                    per * n as f64,
                    format!("{n} Williamson County hexes next to Brentwood held by undemoralized Union infantry × {} ({list})", vp_text(per)),
                )
            }
        }
        (6, "brentwood-turn-1") => {
            let held = flags.get(SC6_BRENTWOOD_TURN_1).is_some_and(|&v| v != 0);
            flat(
                per,
                held,
                if held {
                    "undemoralized Union infantry held Brentwood at the end of Turn 1".to_string()
                } else {
                    "no undemoralized Union infantry in Brentwood at the end of Turn 1".to_string()
                },
            )
        }
        (6, "brentwood-cleared") => {
            let near =
                within(rules, state, BRENTWOOD, 2, confederate.ty(CounterType::Infantry).divisions().undemoralized());
            flat(
                per,
                near.is_empty(),
                format!(
                    "undemoralized Confederate infantry divisions within 2 hexes of Brentwood: {}",
                    names(rules, state, &near)
                ),
            )
        }
        (6, "confederate-cut-off") => {
            let closed = sc6_closed(rules, state);
            let cut: Vec<usize> = units_of(rules, state, confederate.ty(CounterType::Infantry).divisions())
                .filter(|&(_, h)| rules.map().county(h) == Some("Davidson") && !sc6_loc(rules, h, &closed))
                .map(|(u, _)| u)
                .collect();
            per_unit(
                per,
                &cut,
                rules,
                state,
                "Confederate infantry divisions in Davidson County with no LOC to Brentwood or Columbia",
            )
        }

        // ---- Sc 7: Hood's Retreat ----
        (7, "division-south-of-duck") => {
            let map = rules.map();
            let home: Vec<usize> = units_of(rules, state, confederate.ty(CounterType::Infantry).divisions())
                .filter(|&(_, h)| map.county(h) == Some("Maury") && rules.south_of_duck(h))
                .map(|(u, _)| u)
                .collect();
            per_unit(per, &home, rules, state, "Confederate infantry divisions in Maury County south of the Duck")
        }
        (7, "columbia") => occupation(
            rules,
            state,
            per,
            &[COLUMBIA],
            confederate.ty(CounterType::Infantry).divisions().undemoralized(),
        ),

        // ---- Sc 8: That Devil Forrest ----
        (8, "lynnville-or-colored-church") => occupation(
            rules,
            state,
            per,
            &[LYNNVILLE, COLORED_CHURCH],
            union.ty(CounterType::Infantry).divisions().undemoralized(),
        ),

        _ => return None,
    })
}

// ----- HSN Sc 9 -----------------------------------------------------------------------------

/// HSN Sc 9: the stations whose destruction scores (Antioch, La Vergne, Smyrna, Florence,
/// Brentwood).
const SC9_STATIONS: [Hex; 5] = [Hex::new(55, 14), Hex::new(55, 19), Hex::new(55, 23), Hex::new(53, 27), BRENTWOOD];

/// HSN Sc 9: a VP Phase award, summed over the turns recorded by [`crate::vp_phase`], e.g.
/// "earned on turns 9, 10, 11: 3 × 2 = 6".
fn phase_award(flags: &BTreeMap<String, i32>, id: &str, per: f64) -> (f64, String) {
    let prefix = format!("{}{id}/", crate::vp_phase::FLAG_VP);
    let turns: Vec<(u16, i32)> = flags
        .iter()
        .filter_map(|(k, &v)| k.strip_prefix(&prefix).and_then(|t| t.parse().ok()).map(|t| (t, v)))
        .collect();
    let total: i32 = turns.iter().map(|&(_, v)| v).sum();
    if turns.is_empty() {
        return (0.0, "not earned in any VP Phase".to_string());
    }
    let list: Vec<String> = turns.iter().map(|(t, _)| t.to_string()).collect();
    let word = if turns.len() == 1 { "turn" } else { "turns" };
    (
        f64::from(total),
        format!("earned in the VP Phase of {word} {}: {} × {} = {total}", list.join(", "), turns.len(), vp_text(per)),
    )
}

/// HSN Sc 9 blocked hexes for an LOC, by map index: a printed Union fort not destroyed, or a hex
/// where undemoralized Union units under Fort markers total Combat 6 or more (entrenchment not
/// counted) with a Union corps or district leader there, or Steedman's own division instead.
fn sc9_blocked(rules: &Gcacw, state: &State) -> Vec<bool> {
    use caisson_hexmap::HexFeature;
    let map = rules.map();
    let n = map.index_len();
    let mut blocked = vec![false; n];
    for (hex, features) in map.featured_hexes() {
        if features.iter().any(|f| matches!(f, HexFeature::FortA | HexFeature::FortB))
            && !crate::wagons::fort_destroyed(state, hex)
        {
            if let Some(i) = map.index(hex) {
                blocked[i] = true;
            }
        }
    }
    let mut fort_cv = vec![Half::ZERO; n];
    let mut commander = vec![false; n];
    for (u, h) in units_of(rules, state, Who::side(Side::Union)) {
        let Some(i) = map.index(h) else { continue };
        if state.units[u].demoralized == 0
            && state.units[u].entrenchment == Some(crate::scenario::Entrenchment::FortComplete)
        {
            fort_cv[i] = fort_cv[i] + rules.combat_value(state, u);
        }
        if rules.unit_id(state, u) == "steedman" {
            commander[i] = true;
        }
    }
    for l in 0..state.leaders.len() {
        let c = rules.leader_counter(state, l);
        if c.side == Side::Union && matches!(c.ty, CounterType::Corps | CounterType::District) {
            if let Some(i) = rules.leader_hex(state, l).and_then(|h| map.index(h)) {
                commander[i] = true;
            }
        }
    }
    for i in 0..n {
        if fort_cv[i] >= Half::whole(6) && commander[i] {
            blocked[i] = true;
        }
    }
    blocked
}

/// HSN Sc 9: whether every hex next to `hex` is occupied by Union infantry or in the ZOC of
/// undemoralized Union infantry (the LOC VP are then lost).
fn sc9_surrounded(rules: &Gcacw, hex: Hex, zoc: &[Zoc], infantry: &[bool]) -> bool {
    let map = rules.map();
    map.neighbors(hex).all(|(_, n)| map.index(n).is_some_and(|i| infantry[i] || zoc[i] != Zoc::None))
}

/// HSN Sc 9 LOC award: every Confederate infantry division on the map south (`south`) or north of
/// the Duck River that traces an LOC (exited divisions are off the map and never score).
fn sc9_loc_award(rules: &Gcacw, state: &State, per: f64, south: bool) -> (f64, String) {
    let map = rules.map();
    let n = map.index_len();
    let blocked = sc9_blocked(rules, state);
    let mut infantry = vec![false; n];
    let mut sources = Vec::new();
    for (u, h) in units_of(rules, state, Who::side(Side::Union).ty(CounterType::Infantry)) {
        if let Some(i) = map.index(h) {
            infantry[i] = true;
        }
        if state.units[u].demoralized == 0 {
            sources.push(h);
        }
    }
    let zoc = zoc::grid(map, &state.bridges, sources, state.rain, crate::combat::unfordable(rules, state));
    let murfreesboro_held = rules.occupant(state, MURFREESBORO) == Some(Side::Confederate);
    let fort_down = crate::wagons::fort_destroyed(state, crate::vp_phase::MURFREESBORO_FORT);
    let bits = if south { Hexside::PIKE | Hexside::ROAD | Hexside::RAILROAD } else { Hexside::PIKE };
    let south_edge = |h: Hex| h.col == 1;
    let north_targets = |h: Hex| {
        [Hex::new(1, 11), Hex::new(1, 25), Hex::new(1, 31)].contains(&h)
            || (h == MURFREESBORO && murfreesboro_held && fort_down)
    };
    let (mut yes, mut no) = (Vec::new(), Vec::new());
    for (u, h) in units_of(rules, state, Who::side(Side::Confederate).ty(CounterType::Infantry).divisions()) {
        if rules.south_of_duck(h) != south {
            continue;
        }
        let name = rules.unit_name(state, u);
        if h == MURFREESBORO || (murfreesboro_held && h.distance(MURFREESBORO) == 1) {
            yes.push(format!("{name} (at or next to a Confederate-held Murfreesboro)"));
            continue;
        }
        if sc9_surrounded(rules, h, &zoc, &infantry) {
            no.push(format!("{name} (surrounded)"));
            continue;
        }
        let ctx = loc_context(rules, state, u);
        let closed = |i: usize| blocked[i];
        let found = if south {
            route_trace(rules, &ctx, h, bits, u16::MAX, &south_edge, &closed)
        } else {
            route_trace(rules, &ctx, h, bits, u16::MAX, &north_targets, &closed)
        };
        match found {
            Some((hop, len)) => yes.push(format!("{name} ({hop} hexes to the route, then {len} route hexes)")),
            None => no.push(name),
        }
    }
    let k = yes.len();
    let side = if south { "south" } else { "north" };
    let mut detail = format!(
        "{k} Confederate infantry divisions {side} of the Duck with an LOC × {}: {}",
        vp_text(per),
        if yes.is_empty() { "none".to_string() } else { yes.join(", ") }
    );
    if !no.is_empty() {
        detail.push_str(&format!("; none for {}", no.join(", ")));
    }
    (per * k as f64, detail)
}

/// HSN Sc 6: whether an undemoralized Union infantry unit holds Brentwood, and the undemoralized
/// Confederate infantry units next to it.
fn sc6_brentwood(rules: &Gcacw, state: &State) -> (bool, Vec<usize>) {
    let held = occupies(rules, state, BRENTWOOD, Who::side(Side::Union).ty(CounterType::Infantry).undemoralized());
    let adjacent: Vec<usize> =
        units_of(rules, state, Who::side(Side::Confederate).ty(CounterType::Infantry).undemoralized())
            .filter(|&(_, h)| h.distance(BRENTWOOD) == 1)
            .map(|(u, _)| u)
            .collect();
    (held, adjacent)
}

fn sc6_brentwood_detail(rules: &Gcacw, state: &State, held: bool, adjacent: &[usize]) -> String {
    format!(
        "Brentwood {} by undemoralized Union infantry; undemoralized Confederate infantry next to it: {}",
        if held { "held" } else { "not held" },
        names(rules, state, adjacent)
    )
}
