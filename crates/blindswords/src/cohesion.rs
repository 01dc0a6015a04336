//! [SR 12] Cohesion Tests: the state a unit carries into combat (face, Morale Hits, support,
//! Broken Track), its modified Strength and Cohesion Rating, Morale Hits (SR 12.5), Break Tests
//! (SR 12.6, 12.8), Unit Support (SR 12.4, EX 12.4), and the Fire and Close Combat Cohesion Tests
//! (SR 12.1, 12.2) applied to an explicit stack of units.
//!
//! Everything here is a pure function over the structs it is given. Dice come in as arguments:
//! a procedure that may need Break Test dice takes the rolls made so far (`break_dice`) and, when
//! it needs one more, answers [`Need::Roll`] with the [`RollRequest`] to make; the caller rolls it
//! through the kernel, appends the die and calls again with the same input. The same holds for
//! the owner's choices ([`Need::Choose`]). Retreat paths and Panic candidates depend on the map,
//! so a test reports the retreats it orders and how many units must panic; [`panic_pick`] and
//! [`apply_panic`] finish the Panic once the caller has the candidates' modified ratings.

use std::fmt;

use caisson_hexmap::Hex;
use caisson_kernel::protocol::{Modifier, RollRequest};

use crate::catalog::{Face, Side, Sp, Unit, UnitType, Weapon};
use crate::charts::{BreakResult, Charts, CohesionResult, Depletion, Section, Skedaddle, MAX_CR};

/// A unit's Morale Hit marker (SR 12.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Morale {
    /// No marker.
    Steady,
    /// "Shaken": SP and CR −1.
    Shaken,
    /// "Disrupted": SP and CR −2.
    Disrupted,
}

impl Morale {
    /// What the marker takes off SP and CR (SR 12.5).
    #[must_use]
    pub const fn penalty(self) -> u8 {
        match self {
            Morale::Steady => 0,
            Morale::Shaken => 1,
            Morale::Disrupted => 2,
        }
    }

    /// The marker after one more hit, and whether the hit calls for a Break Test (SR 12.5).
    #[must_use]
    pub const fn hit(self) -> (Morale, bool) {
        match self {
            Morale::Steady => (Morale::Shaken, false),
            Morale::Shaken => (Morale::Disrupted, false),
            Morale::Disrupted => (Morale::Disrupted, true),
        }
    }

    /// The marker after one hit is removed (SR 13.2a Defend).
    #[must_use]
    pub const fn recover_one(self) -> Morale {
        match self {
            Morale::Steady | Morale::Shaken => Morale::Steady,
            Morale::Disrupted => Morale::Shaken,
        }
    }
}

impl fmt::Display for Morale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Morale::Steady => "no Morale Hit",
            Morale::Shaken => "Shaken",
            Morale::Disrupted => "Disrupted",
        })
    }
}

/// Where a unit is (SR 12.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// In play on the map.
    OnMap,
    /// In a numbered box of the Broken Track, 1–3 (3 the worst).
    Broken(u8),
    /// In the Broken Track's "Available" box.
    Available,
    /// Out of the game (artillery and Fragile units that break, SR 12.6, 12.8).
    Eliminated,
}

/// A unit as combat sees it: the counter's two faces and what is on it now.
#[derive(Clone, Debug, PartialEq)]
pub struct CombatUnit {
    /// Catalog id.
    pub id: String,
    /// Owner.
    pub side: Side,
    /// Infantry, cavalry, foot or horse artillery.
    pub ty: UnitType,
    /// Brigade id (`None` for division artillery, e.g. Sheridan's batteries, EX 12.4 ii).
    pub brigade: Option<String>,
    /// Division id.
    pub division: Option<String>,
    /// The Fresh face; `None` for a Fragile unit (SR 2.1).
    pub fresh: Option<Face>,
    /// The Battleworn face.
    pub worn: Face,
    /// Weapon type.
    pub weapon: Weapon,
    /// Whether the Battleworn face is up.
    pub battleworn: bool,
    /// Morale Hit marker.
    pub morale: Morale,
    /// On the map, broken, available or eliminated.
    pub status: Status,
    /// Whether a unit *outside its hex* supports it (see [`supported`]); units of its own hex
    /// are judged afresh whenever a [`Stack`] needs its rating.
    pub nearby_support: bool,
    /// In Skirmish Order: gives and gets no support (EX 15.3).
    pub skirmish: bool,
    /// Under a Battlefield Chaos chit: gives and gets no support (EX 7.3b).
    pub chaos: bool,
}

impl CombatUnit {
    /// A unit of the catalog as it starts: Fresh face up (Battleworn for a Fragile unit), no
    /// marker, on the map, without support from outside its hex.
    #[must_use]
    pub fn from_catalog(u: &Unit) -> CombatUnit {
        CombatUnit {
            id: u.id.clone(),
            side: u.side,
            ty: u.ty,
            brigade: u.brigade.clone(),
            division: u.division.clone(),
            fresh: u.fresh,
            worn: u.worn,
            weapon: u.weapon,
            battleworn: u.fresh.is_none(),
            morale: Morale::Steady,
            status: Status::OnMap,
            nearby_support: false,
            skirmish: false,
            chaos: false,
        }
    }

    /// Whether the unit has only a Battleworn side (SR 2.1).
    #[must_use]
    pub const fn fragile(&self) -> bool {
        self.fresh.is_none()
    }

    /// The face now up.
    #[must_use]
    pub fn face(&self) -> Face {
        match self.fresh {
            Some(f) if !self.battleworn => f,
            _ => self.worn,
        }
    }

    /// Printed SP of the face up (SR 9.2 Lead Unit, SR 12.1 "largest printed SP").
    #[must_use]
    pub fn printed_sp(&self) -> Sp {
        self.face().sp
    }

    /// Modified SP (SR 2.1): printed SP ("C" = ½) less the Morale Hit penalty, never below 0.
    #[must_use]
    pub fn modified_sp(&self) -> f64 {
        (f64::from(self.face().sp.halves()) / 2.0 - f64::from(self.morale.penalty())).max(0.0)
    }

    /// Whether Skirmish Order or Battlefield Chaos keeps the unit out of Unit Support.
    #[must_use]
    pub const fn out_of_support(&self) -> bool {
        self.skirmish || self.chaos
    }

    /// Whether this unit would support `other` if stacked with or adjacent to it (SR 12.4a,
    /// EX 12.4 i–ii): on the map, neither Shaken nor Disrupted (Battleworn is fine), not out of
    /// support itself, and of the same brigade; division artillery (no brigade: Sheridan's
    /// batteries) counts as of every brigade of its division (ruling PC4).
    #[must_use]
    pub fn supports(&self, other: &CombatUnit) -> bool {
        if self.id == other.id || self.status != Status::OnMap || self.morale != Morale::Steady {
            return false;
        }
        if self.out_of_support() || self.side != other.side {
            return false;
        }
        let same_division = self.division.is_some() && self.division == other.division;
        match (&other.brigade, &self.brigade) {
            (Some(b), Some(own)) => b == own,
            // Division artillery carries the colours of every brigade of its division.
            (None, _) => other.ty.is_artillery() && same_division,
            (Some(_), None) => self.ty.is_artillery() && same_division,
        }
    }
}

/// A unit near another, for [`supported`]: the unit and whether its hex lets it give support
/// (EX 12.4 iv: not from Woods or Perryville).
#[derive(Clone, Copy, Debug)]
pub struct Nearby<'a> {
    /// A unit stacked with or adjacent to the one judged.
    pub unit: &'a CombatUnit,
    /// Whether its hex allows Unit Support (the TEC's `support`).
    pub hex_allows_support: bool,
}

/// Unit Support (SR 12.4, EX 12.4), judged each time a modified CR is needed: `hex_allows_support`
/// is the TEC's `support` for the unit's own hex (false in Woods and Perryville, EX 12.4 iv, which
/// overrides everything), `nearby` the units stacked with or adjacent to it, `night` the EX 16.1g
/// optional night rule (nobody is supported).
#[must_use]
pub fn supported(unit: &CombatUnit, hex_allows_support: bool, nearby: &[Nearby<'_>], night: bool) -> bool {
    if night || !hex_allows_support || unit.out_of_support() {
        return false;
    }
    nearby.iter().any(|n| n.hex_allows_support && n.unit.supports(unit))
}

/// The units of one hex under a Cohesion Test.
#[derive(Clone, Debug, PartialEq)]
pub struct Stack {
    /// The units, in any order.
    pub units: Vec<CombatUnit>,
    /// Whether the hex allows Unit Support (false in Woods and Perryville, EX 12.4 iv).
    pub allows_support: bool,
}

impl Stack {
    /// Whether unit `i` is supported now: by a unit outside the hex (its `nearby_support`) or by
    /// one of the hex (SR 12.4).
    #[must_use]
    pub fn is_supported(&self, i: usize) -> bool {
        let Some(u) = self.units.get(i) else { return false };
        if !self.allows_support || u.out_of_support() {
            return false;
        }
        u.nearby_support || self.units.iter().any(|o| o.supports(u))
    }

    /// Unit `i`'s modified Cohesion Rating with its itemised modifiers (SR 2.1: printed CR, −1
    /// Shaken, −2 Disrupted, −1 unsupported, kept within 0–6).
    #[must_use]
    pub fn modified_cr(&self, i: usize) -> (i32, Vec<Modifier>) {
        let Some(u) = self.units.get(i) else { return (0, Vec::new()) };
        let mut mods = Vec::new();
        if u.morale != Morale::Steady {
            mods.push(Modifier::new(u.morale.to_string(), -i32::from(u.morale.penalty()), "SR 12.5"));
        }
        if !self.is_supported(i) {
            mods.push(Modifier::new("unsupported", -1, "SR 12.4b"));
        }
        let cr = i32::from(u.face().cr) + mods.iter().map(|m| m.value).sum::<i32>();
        (cr.clamp(0, i32::from(MAX_CR)), mods)
    }

    /// The total modified SP of the units on the map.
    #[must_use]
    pub fn modified_sp(&self) -> f64 {
        self.units.iter().filter(|u| u.status == Status::OnMap).map(CombatUnit::modified_sp).sum()
    }

    fn largest_except(&self, except: Option<usize>) -> Vec<usize> {
        let live = |i: &usize| Some(*i) != except && self.units[*i].status == Status::OnMap;
        let best = (0..self.units.len()).filter(live).map(|i| self.units[i].printed_sp()).max();
        (0..self.units.len()).filter(live).filter(|i| Some(self.units[*i].printed_sp()) == best).collect()
    }

    /// The units with the largest printed SP (SR 9.2): one is the Lead Unit, the owner choosing
    /// among ties. Empty when no unit is on the map.
    #[must_use]
    pub fn largest(&self) -> Vec<usize> {
        self.largest_except(None)
    }
}

/// One thing a procedure did, in order, for the log and the UI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The unit concerned.
    pub unit: String,
    /// What happened, in words.
    pub what: String,
    /// The rule that says so.
    pub rule: &'static str,
}

/// What a procedure waits for before it can finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Need {
    /// One more die: roll it and call again with it appended to the dice.
    Roll(RollRequest),
    /// The owner must pick one of these units (by index in the stack named): call again with the
    /// choice filled in.
    Choose {
        /// Which choice, e.g. "Lead Unit of the target hex".
        what: String,
        /// The candidates, as indexes.
        candidates: Vec<usize>,
        /// The rule.
        rule: &'static str,
    },
}

impl fmt::Display for Need {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Need::Roll(r) => write!(f, "roll {}d6: {} [{}]", r.dice, r.purpose, r.rule),
            Need::Choose { what, candidates, rule } => write!(f, "choose {what} among {candidates:?} [{rule}]"),
        }
    }
}

/// A retreat a test orders; the caller moves the unit (SR 12.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Retreat {
    /// The unit.
    pub unit: String,
    /// Hexes to retreat.
    pub hexes: u8,
    /// The result that ordered it.
    pub rule: &'static str,
}

/// Break Test dice given so far, consumed in order.
#[derive(Debug)]
struct Dice<'a> {
    rolls: &'a [u8],
    used: usize,
}

impl Dice<'_> {
    fn next(&mut self, unit: &CombatUnit, cr: i32) -> Result<u8, Need> {
        match self.rolls.get(self.used) {
            Some(&r) if (1..=6).contains(&r) => {
                self.used += 1;
                Ok(r)
            }
            // Missing, or not a die face: ask for the roll.
            _ => Err(Need::Roll(RollRequest {
                side: unit.side.to_string(),
                purpose: format!("Break Test for {} (modified CR {cr})", unit.id),
                rule: "SR 12.6".to_string(),
                dice: 1,
                modifiers: Vec::new(),
            })),
        }
    }
}

/// Applies Break Test results and Morale Hits to the units of one stack.
struct Resolver<'a> {
    charts: &'a Charts,
    dice: Dice<'a>,
    steps: Vec<Step>,
}

impl Resolver<'_> {
    fn step(&mut self, unit: &CombatUnit, what: impl Into<String>, rule: &'static str) {
        self.steps.push(Step { unit: unit.id.clone(), what: what.into(), rule });
    }

    /// One Break Test (SR 12.6): a roll at or under the modified CR adds a marker (not a Morale
    /// Hit, so no further test, ruling A-53b); above it the unit breaks.
    fn break_test(&mut self, stack: &mut Stack, i: usize) -> Result<(), Need> {
        if stack.units[i].status != Status::OnMap {
            return Ok(());
        }
        let (cr, _) = stack.modified_cr(i);
        let roll = self.dice.next(&stack.units[i], cr)?;
        let result = self.charts.break_test.result(roll, cr);
        let u = &mut stack.units[i];
        let what = match result {
            BreakResult::Hold => {
                u.morale = match u.morale {
                    Morale::Steady => Morale::Shaken,
                    Morale::Shaken | Morale::Disrupted => Morale::Disrupted,
                };
                format!("Break Test: rolled {roll} against CR {cr}, holds: {}", u.morale)
            }
            BreakResult::Broken(n) => {
                u.morale = Morale::Steady;
                u.battleworn = true;
                if u.ty.is_artillery() || u.fragile() {
                    u.status = Status::Eliminated;
                    format!("Break Test: rolled {roll} against CR {cr}, breaks: eliminated (artillery or Fragile)")
                } else {
                    u.status = Status::Broken(n);
                    format!("Break Test: rolled {roll} against CR {cr}, breaks: Broken Box {n}, Battleworn side")
                }
            }
        };
        let u = stack.units[i].clone();
        self.step(&u, what, "SR 12.6");
        Ok(())
    }

    /// A Deplete result (SR 12.1a): Fresh flips to Battleworn; a Battleworn or Fragile unit takes
    /// a Break Test.
    fn deplete(&mut self, stack: &mut Stack, i: usize, rule: &'static str) -> Result<(), Need> {
        let u = &mut stack.units[i];
        if u.status != Status::OnMap {
            return Ok(());
        }
        if u.battleworn {
            let u = u.clone();
            self.step(&u, "Depleted on its Battleworn side: Break Test", rule);
            self.break_test(stack, i)
        } else {
            u.battleworn = true;
            let u = u.clone();
            self.step(&u, "Depleted: flipped to its Battleworn side", rule);
            Ok(())
        }
    }

    /// `n` Morale Hits (SR 12.5); `may_break` false for the Chaplin retreat hit (EX 2.10k,
    /// ruling A-53), which never calls for a Break Test.
    fn morale_hits(&mut self, stack: &mut Stack, i: usize, n: u8, may_break: bool) -> Result<(), Need> {
        for _ in 0..n {
            let u = &mut stack.units[i];
            if u.status != Status::OnMap {
                return Ok(());
            }
            let (next, test) = u.morale.hit();
            u.morale = next;
            let u = u.clone();
            if test && may_break {
                self.step(&u, "Morale Hit while Disrupted: Break Test", "SR 12.5");
                self.break_test(stack, i)?;
            } else {
                self.step(&u, format!("Morale Hit: {next}"), "SR 12.5");
            }
        }
        Ok(())
    }
}

/// Morale Hits given to one unit outside a Cohesion Test (horse artillery withdrawing, EX 11.3b;
/// the Chaplin crossed in a retreat, EX 2.10k with `may_break` false): the unit after them and
/// what happened. Needs Break Test dice when a Disrupted unit is hit and `may_break` is set.
///
/// # Errors
/// [`Need::Roll`] when a Break Test die is missing from `break_dice`.
pub fn morale_hits(
    charts: &Charts,
    stack: &Stack,
    unit: usize,
    hits: u8,
    may_break: bool,
    break_dice: &[u8],
) -> Result<(Stack, Vec<Step>), Need> {
    let mut stack = stack.clone();
    let mut r = Resolver { charts, dice: Dice { rolls: break_dice, used: 0 }, steps: Vec::new() };
    if unit < stack.units.len() {
        r.morale_hits(&mut stack, unit, hits, may_break)?;
    }
    Ok((stack, r.steps))
}

/// A Fire Combat Cohesion Test to resolve (SR 12.1).
#[derive(Clone, Debug)]
pub struct FireTest {
    /// The section the CRT gave.
    pub section: Section,
    /// The target hex.
    pub target: Stack,
    /// The Lead Unit's index (SR 9.2; for Opportunity Fire the moving unit, SR 10.7).
    pub lead: usize,
    /// Opportunity Fire: units stacked with the moving Lead Unit are not affected (SR 10.7), so
    /// "D2" and "D all" touch the Lead Unit only.
    pub opportunity: bool,
    /// The owner's pick of the second unit of a "D2" when several tie for the next largest SP.
    pub second: Option<usize>,
}

/// What a Cohesion Test did.
#[derive(Clone, Debug)]
pub struct TestOutcome {
    /// The coloured die's result as printed.
    pub depletion: String,
    /// The white die's result as printed.
    pub skedaddle: String,
    /// The tested (defending) hex afterwards.
    pub target: Stack,
    /// The attacking units afterwards (Close Combat only).
    pub attackers: Option<Stack>,
    /// Everything that happened, in order.
    pub steps: Vec<Step>,
    /// Retreats to carry out, in order (SR 12.3); units broken since are left out.
    pub retreats: Vec<Retreat>,
    /// How many units must Panic (SR 12.1 P1, 12.2 P#): after the retreats, pick them with
    /// [`panic_pick`] and apply [`apply_panic`].
    pub panic: u8,
}

fn check_index(stack: &Stack, i: usize, what: &str) -> Result<(), Need> {
    if i < stack.units.len() && stack.units[i].status == Status::OnMap {
        Ok(())
    } else {
        Err(Need::Choose { what: what.to_string(), candidates: stack.largest(), rule: "SR 9.2" })
    }
}

/// The second unit of a "D2" (SR 12.1a): the next largest printed SP after the Lead Unit.
fn second_unit(stack: &Stack, lead: usize, pick: Option<usize>) -> Result<Option<usize>, Need> {
    let tied = stack.largest_except(Some(lead));
    match (tied.len(), pick) {
        (0, _) => Ok(None),
        (1, _) => Ok(Some(tied[0])),
        (_, Some(p)) if tied.contains(&p) => Ok(Some(p)),
        _ => Err(Need::Choose {
            what: "the second unit of a D2 (next largest printed SP)".to_string(),
            candidates: tied,
            rule: "SR 12.1a",
        }),
    }
}

fn deplete_defenders(
    r: &mut Resolver<'_>,
    stack: &mut Stack,
    lead: usize,
    d: Depletion,
    lead_only: bool,
    second: Option<usize>,
) -> Result<(), Need> {
    match d {
        Depletion::Deplete | Depletion::BothDeplete => r.deplete(stack, lead, "SR 12.1a D"),
        Depletion::DepleteTwo => {
            // Pick the second before the Lead Unit's result can break it off the map.
            let other = if lead_only { None } else { second_unit(stack, lead, second)? };
            r.deplete(stack, lead, "SR 12.1a D2")?;
            match other {
                Some(o) => r.deplete(stack, o, "SR 12.1a D2"),
                None => Ok(()),
            }
        }
        Depletion::DepleteAll => {
            r.deplete(stack, lead, "SR 12.1a D all")?;
            if !lead_only {
                for i in (0..stack.units.len()).filter(|i| *i != lead) {
                    r.deplete(stack, i, "SR 12.1a D all")?;
                }
            }
            Ok(())
        }
        Depletion::None | Depletion::AttackerDeplete => Ok(()),
    }
}

/// Resolves a Fire Combat Cohesion Test (SR 12.1) with the owner's two dice (`coloured`,
/// `white`) and the Break Test dice rolled so far. Depletion is applied in full, then the
/// Skedaddle results in their order, all to the Lead Unit; Panic is left to the caller (see
/// [`TestOutcome::panic`]).
///
/// # Errors
/// [`Need::Roll`] for a missing Break Test die, [`Need::Choose`] for an owner's choice (a tie for
/// the second unit of a D2, or a `lead` that is not a unit on the map). A die that is not 1–6
/// answers a [`Need::Roll`] for the Cohesion Test itself.
pub fn fire_test(
    charts: &Charts,
    test: &FireTest,
    coloured: u8,
    white: u8,
    break_dice: &[u8],
) -> Result<TestOutcome, Need> {
    let Some(result) = charts.fire_tests.result(test.section, coloured, white) else {
        return Err(cohesion_roll(&test.target, test.lead, "Fire Combat Cohesion Test", "SR 12.1"));
    };
    check_index(&test.target, test.lead, "the Lead Unit")?;
    let mut stack = test.target.clone();
    let mut r = Resolver { charts, dice: Dice { rolls: break_dice, used: 0 }, steps: Vec::new() };
    deplete_defenders(&mut r, &mut stack, test.lead, result.depletion, test.opportunity, test.second)?;
    let mut retreats = Vec::new();
    let mut panic = 0;
    for s in result.skedaddle {
        match *s {
            Skedaddle::MoraleHits(n) => r.morale_hits(&mut stack, test.lead, n, true)?,
            Skedaddle::BreakTest => r.break_test(&mut stack, test.lead)?,
            Skedaddle::Retreat(n) | Skedaddle::RetreatAll(n) => {
                retreats.push(Retreat { unit: stack.units[test.lead].id.clone(), hexes: n, rule: "SR 12.1b R#" });
            }
            Skedaddle::Panic(n) => panic += n,
            Skedaddle::AttackerMoraleHit | Skedaddle::AttackerRetreat(_) => {}
        }
    }
    retreats.retain(|rt| stack.units.iter().any(|u| u.id == rt.unit && u.status == Status::OnMap));
    Ok(TestOutcome {
        depletion: result.depletion_text.to_string(),
        skedaddle: result.skedaddle_text.to_string(),
        target: stack,
        attackers: None,
        steps: r.steps,
        retreats,
        panic,
    })
}

fn cohesion_roll(stack: &Stack, lead: usize, purpose: &str, rule: &str) -> Need {
    let side = stack.units.get(lead).map_or_else(String::new, |u| u.side.to_string());
    Need::Roll(RollRequest {
        side,
        purpose: format!("{purpose}: coloured die Depletion, white die Skedaddle"),
        rule: rule.to_string(),
        dice: 2,
        modifiers: Vec::new(),
    })
}

/// A Close Combat Cohesion Test to resolve (SR 12.2).
#[derive(Clone, Debug)]
pub struct CloseTest {
    /// The section the CRT gave (a "-" is [`Section::CloseFight`], SR 11.0).
    pub section: Section,
    /// The defending hex.
    pub target: Stack,
    /// The defending Lead Unit's index.
    pub lead: usize,
    /// The owner's pick of the second unit of a "D2" among ties.
    pub second: Option<usize>,
    /// The attacking units of the Assaulting Hex (the only hex "AD", "AMH" and "AR#" touch).
    pub assault: Stack,
    /// The owner's pick of the attacker hit among ties for the largest printed SP.
    pub attacker: Option<usize>,
    /// Total modified SP of every attacking unit, Flanking Hexes included, for "BD*".
    pub attacking_sp: f64,
}

/// Resolves a Close Combat Cohesion Test (SR 12.2): Depletion in full, then Skedaddle in the
/// order printed. "AD", "AMH" and "AR#" hit the Assaulting Hex's largest printed-SP unit; "BD*"
/// depletes both sides unless one side's modified SP triples the other's; "RA#" retreats every
/// defender. Panic is left to the caller (see [`apply_panic`] for the RA and Panic distances).
///
/// # Errors
/// As [`fire_test`]; [`Need::Choose`] also for a tie among the largest attackers.
pub fn close_test(
    charts: &Charts,
    test: &CloseTest,
    coloured: u8,
    white: u8,
    break_dice: &[u8],
) -> Result<TestOutcome, Need> {
    let Some(result) = charts.close_tests.result(test.section, coloured, white) else {
        return Err(cohesion_roll(&test.target, test.lead, "Close Combat Cohesion Test", "SR 12.2"));
    };
    check_index(&test.target, test.lead, "the Lead Unit")?;
    let CohesionResult { depletion, skedaddle, depletion_text, skedaddle_text } = result;
    let mut stack = test.target.clone();
    let mut assault = test.assault.clone();
    let mut r = Resolver { charts, dice: Dice { rolls: break_dice, used: 0 }, steps: Vec::new() };
    let attacker = || -> Result<Option<usize>, Need> {
        let tied = test.assault.largest();
        match (tied.len(), test.attacker) {
            (0, _) => Ok(None),
            (1, _) => Ok(Some(tied[0])),
            (_, Some(p)) if tied.contains(&p) => Ok(Some(p)),
            _ => Err(Need::Choose {
                what: "the attacker with the largest printed SP".to_string(),
                candidates: tied,
                rule: "SR 12.2a",
            }),
        }
    };
    let defending_sp = stack.modified_sp();
    let (hit_defender, hit_attacker) = match depletion {
        Depletion::AttackerDeplete => (false, true),
        Depletion::BothDeplete if test.attacking_sp >= 3.0 * defending_sp => {
            r.steps.push(Step {
                unit: stack.units[test.lead].id.clone(),
                what: format!("BD*: attackers' {} SP triple the defenders' {defending_sp}: only D", test.attacking_sp),
                rule: "SR 12.2a BD*",
            });
            (true, false)
        }
        Depletion::BothDeplete if defending_sp >= 3.0 * test.attacking_sp => {
            r.steps.push(Step {
                unit: stack.units[test.lead].id.clone(),
                what: format!("BD*: defenders' {defending_sp} SP triple the attackers' {}: only AD", test.attacking_sp),
                rule: "SR 12.2a BD*",
            });
            (false, true)
        }
        Depletion::BothDeplete => (true, true),
        Depletion::None => (false, false),
        Depletion::Deplete | Depletion::DepleteTwo | Depletion::DepleteAll => (true, false),
    };
    if hit_attacker {
        if let Some(a) = attacker()? {
            r.deplete(&mut assault, a, "SR 12.2a AD")?;
        }
    }
    if hit_defender {
        deplete_defenders(&mut r, &mut stack, test.lead, depletion, false, test.second)?;
    }
    let mut retreats = Vec::new();
    let mut panic = 0;
    for s in skedaddle {
        match *s {
            Skedaddle::MoraleHits(n) => r.morale_hits(&mut stack, test.lead, n, true)?,
            Skedaddle::BreakTest => r.break_test(&mut stack, test.lead)?,
            Skedaddle::Retreat(n) => {
                retreats.push(Retreat { unit: stack.units[test.lead].id.clone(), hexes: n, rule: "SR 12.1b R#" });
            }
            Skedaddle::RetreatAll(n) => {
                for u in &stack.units {
                    retreats.push(Retreat { unit: u.id.clone(), hexes: n, rule: "SR 12.2c RA#" });
                }
            }
            Skedaddle::Panic(n) => panic += n,
            Skedaddle::AttackerMoraleHit => {
                if let Some(a) = attacker()? {
                    r.morale_hits(&mut assault, a, 1, true)?;
                }
            }
            Skedaddle::AttackerRetreat(n) => {
                if let Some(a) = attacker()? {
                    retreats.push(Retreat { unit: assault.units[a].id.clone(), hexes: n, rule: "SR 12.2c AR#" });
                }
            }
        }
    }
    retreats
        .retain(|rt| stack.units.iter().chain(&assault.units).any(|u| u.id == rt.unit && u.status == Status::OnMap));
    Ok(TestOutcome {
        depletion: depletion_text.to_string(),
        skedaddle: skedaddle_text.to_string(),
        target: stack,
        attackers: Some(assault),
        steps: r.steps,
        retreats,
        panic,
    })
}

/// A unit that might panic: its id and its modified CR now (after the Lead Unit's results).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanicCandidate {
    /// Unit id.
    pub unit: String,
    /// Modified CR, judged after the Lead Unit's retreat (SR 12.1 note).
    pub cr: i32,
}

/// Who panics (SR 12.1b P1, 12.2c P#): `count` units, not the Lead Unit, in the target hex or
/// adjacent, of modified CR 2 or less, lowest rating first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanicPick {
    /// Units that must panic.
    pub forced: Vec<String>,
    /// How many more the firing (attacking) player picks from `tied`.
    pub choose: usize,
    /// Units tied at the next rating, to choose from.
    pub tied: Vec<String>,
}

/// The highest modified CR that can panic (SR 12.1b).
pub const PANIC_MAX_CR: i32 = 2;

/// Sorts the candidates into those that must panic and a tie the enemy player resolves
/// (SR 12.1b, 12.2c). `candidates` must exclude the Lead Unit.
#[must_use]
pub fn panic_pick(candidates: &[PanicCandidate], count: u8) -> PanicPick {
    let mut eligible: Vec<&PanicCandidate> = candidates.iter().filter(|c| c.cr <= PANIC_MAX_CR).collect();
    eligible.sort_by_key(|c| c.cr);
    let mut left = usize::from(count);
    let mut forced = Vec::new();
    let mut i = 0;
    while left > 0 && i < eligible.len() {
        let cr = eligible[i].cr;
        let group: Vec<String> = eligible[i..].iter().take_while(|c| c.cr == cr).map(|c| c.unit.clone()).collect();
        if group.len() <= left {
            left -= group.len();
            i += group.len();
            forced.extend(group);
        } else {
            return PanicPick { forced, choose: left, tied: group };
        }
    }
    PanicPick { forced, choose: 0, tied: Vec::new() }
}

/// A unit panics (SR 12.1b, 12.2c): one Morale Hit, then a retreat of 3 hexes, or of the "RA#"
/// distance it already had to retreat if that is greater (SR 12.2 note: the greater, not both).
///
/// # Errors
/// [`Need::Roll`] when the Morale Hit calls for a Break Test die not yet given.
pub fn apply_panic(
    charts: &Charts,
    stack: &Stack,
    unit: usize,
    retreat_all: Option<u8>,
    break_dice: &[u8],
) -> Result<(Stack, Vec<Step>, Option<Retreat>), Need> {
    let (stack, mut steps) = morale_hits(charts, stack, unit, 1, true, break_dice)?;
    let Some(u) = stack.units.get(unit) else { return Ok((stack, steps, None)) };
    if let Some(first) = steps.first_mut() {
        first.what = format!("Panic: {}", first.what);
    }
    let retreat = (u.status == Status::OnMap).then(|| Retreat {
        unit: u.id.clone(),
        hexes: retreat_all.unwrap_or(0).max(3),
        rule: "SR 12.1b Panic",
    });
    Ok((stack, steps, retreat))
}

/// The Broken Track at the End Turn Phase (SR 12.8a, 14.4): box 1 to Available, 2 to 1, 3 to 2.
#[must_use]
pub const fn broken_track_advance(status: Status) -> Status {
    match status {
        Status::Broken(1) => Status::Available,
        Status::Broken(n) => Status::Broken(n - 1),
        other => other,
    }
}

/// How far the victors may Advance After Close Combat into a hex the enemy emptied (SR 12.7):
/// 2 hexes if the enemy retreated 2 or more or was broken, else 1.
#[must_use]
pub const fn advance_hexes(longest_retreat: u8, broken: bool) -> u8 {
    if broken || longest_retreat >= 2 {
        2
    } else {
        1
    }
}

/// Which enemy units a hex is next to, for retreat priorities (SR 12.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum EnemyNear {
    /// No enemy unit adjacent.
    None,
    /// Only enemy units that did not cause the retreat.
    Other,
    /// An enemy unit that caused the retreat.
    Causer,
}

/// What a retreat needs to know about the ground, for one retreating unit (SR 12.3, EX 12.3).
pub trait RetreatGround {
    /// The six hexes around `hex` on the map's grid, off-map ones included (the grid's parity
    /// decides which they are: use `Map::neighbor`, never `Hex::neighbor`, on Perryville's).
    fn around(&self, hex: Hex) -> Vec<Hex>;
    /// The distance between two hexes on the map's grid (`Map::distance`).
    fn distance(&self, a: Hex, b: Hex) -> u16;
    /// Whether the hex is on the map.
    fn on_map(&self, hex: Hex) -> bool;
    /// Whether the unit may step from `from` into `to`: no enemy unit there, no impassable hex or
    /// hexside for its type (EX 12.3: artillery into Woods and artillery and cavalry across a
    /// Steep Slope only along a road or trail).
    fn may_enter(&self, from: Hex, to: Hex) -> bool;
    /// The enemy units next to the hex.
    fn enemy_near(&self, hex: Hex) -> EnemyNear;
    /// Whether the unit may end its retreat there without over-stacking.
    fn fits(&self, hex: Hex) -> bool;
    /// Whether the step crosses the Chaplin off its fords and bridges (EX 2.10k: a Morale Hit).
    fn crosses_river(&self, from: Hex, to: Hex) -> bool;
}

/// One legal retreat path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetreatPath {
    /// The hexes entered, in order (the starting hex left out).
    pub hexes: Vec<Hex>,
    /// Hexes left after the first that are next to an enemy unit: each calls for Opportunity
    /// Fire (SR 10.7, 12.3 note).
    pub exposed: Vec<Hex>,
    /// Chaplin crossings off a ford or bridge, each a Morale Hit that never calls a Break Test
    /// (EX 2.10k, ruling A-53).
    pub river_crossings: u8,
}

/// The retreats open to a unit (SR 12.3, EX 12.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RetreatPlan {
    /// The best paths by the SR 12.3 priorities, all equal: the owner picks one.
    Paths(Vec<RetreatPath>),
    /// No retreat on the map, but the unit can leave it from the map edge hexes `from` (where
    /// a legal retreat reaches the edge short of its distance): Broken Box 1, artillery
    /// eliminated (EX 12.3, ruling PC10), unless a scenario counts the exit (EX 16.4g).
    OffMap {
        /// The edge hexes the retreat leaves the map from.
        from: Vec<Hex>,
    },
    /// No retreat at all: Broken Box 3, artillery and Fragile units eliminated (SR 12.3).
    Blocked,
}

/// How many hexes past the ordered distance a retreat may go to find a hex it fits in (SR 12.3
/// over-stacking) or to get round an obstacle.
pub const RETREAT_SLACK: usize = 3;

/// How much nearer its own map edges a hex is (EX 12.3: the Union retreats towards the west or
/// south edge, the Confederates towards the north or east; the better of the two counts,
/// ruling PC9). Columns grow eastwards, rows southwards.
fn homeward(side: Side, from: Hex, to: Hex) -> i32 {
    let (east, south) = (i32::from(to.col - from.col), i32::from(to.row - from.row));
    match side {
        Side::Union => (-east).max(south),
        Side::Confederate => east.max(-south),
    }
}

/// The retreats of `hexes` hexes from `from` (SR 12.3, EX 12.3): paths that end exactly that far
/// from the start (or, when no such hex fits the unit, the nearest farther one that does), never
/// entering an enemy or impassable hex; among them, those that avoid hexes next to the enemy
/// that caused the retreat, then next to other enemy units, then go furthest towards the side's
/// own map edges, then the shortest.
#[must_use]
pub fn retreat_paths(ground: &dyn RetreatGround, side: Side, from: Hex, hexes: u8) -> RetreatPlan {
    let want = usize::from(hexes);
    let mut found: Vec<Vec<Hex>> = Vec::new();
    let mut exit: Vec<Hex> = Vec::new();
    let mut path = vec![from];
    fn walk(
        g: &dyn RetreatGround,
        path: &mut Vec<Hex>,
        max: usize,
        want: usize,
        found: &mut Vec<Vec<Hex>>,
        exit: &mut Vec<Hex>,
    ) {
        let here = path[path.len() - 1];
        let start = path[0];
        let far = usize::from(g.distance(start, here));
        if far >= want && path.len() > 1 {
            found.push(path[1..].to_vec());
        }
        if path.len() > max {
            return;
        }
        for next in g.around(here) {
            if path.contains(&next) {
                continue;
            }
            if !g.on_map(next) {
                if far < want && !exit.contains(&here) {
                    exit.push(here);
                }
                continue;
            }
            if g.may_enter(here, next) {
                path.push(next);
                walk(g, path, max, want, found, exit);
                path.pop();
            }
        }
    }
    if want == 0 {
        return RetreatPlan::Paths(vec![RetreatPath { hexes: Vec::new(), exposed: Vec::new(), river_crossings: 0 }]);
    }
    walk(ground, &mut path, want + RETREAT_SLACK, want, &mut found, &mut exit);
    let end_distance = |p: &Vec<Hex>| usize::from(ground.distance(from, p[p.len() - 1]));
    // The nearest distance at or beyond the order where some path ends in a hex the unit fits.
    let fitting: Vec<Vec<Hex>> = found.iter().filter(|p| ground.fits(p[p.len() - 1])).cloned().collect();
    let Some(distance) = fitting.iter().map(end_distance).min() else {
        exit.sort_unstable();
        return if exit.is_empty() { RetreatPlan::Blocked } else { RetreatPlan::OffMap { from: exit } };
    };
    let ends_right: Vec<&Vec<Hex>> = fitting.iter().filter(|p| end_distance(p) == distance).collect();
    let near = |p: &Vec<Hex>, level: EnemyNear| p.iter().any(|h| ground.enemy_near(*h) >= level);
    // A longer path is taken only when it serves a priority (SR 12.3: "to avoid other retreat
    // restrictions"), so length ranks last.
    let rank = |p: &Vec<Hex>| {
        (near(p, EnemyNear::Causer), near(p, EnemyNear::Other), -homeward(side, from, p[p.len() - 1]), p.len())
    };
    let Some(best) = ends_right.iter().map(|p| rank(p)).min() else { return RetreatPlan::Blocked };
    let mut out: Vec<RetreatPath> = ends_right
        .into_iter()
        .filter(|p| rank(p) == best)
        .map(|p| {
            let mut steps = vec![from];
            steps.extend(p.iter().copied());
            RetreatPath {
                hexes: p.clone(),
                exposed: p[..p.len() - 1]
                    .iter()
                    .copied()
                    .filter(|h| ground.enemy_near(*h) != EnemyNear::None)
                    .collect(),
                river_crossings: u8::try_from(steps.windows(2).filter(|w| ground.crosses_river(w[0], w[1])).count())
                    .unwrap_or(u8::MAX),
            }
        })
        .collect();
    out.dedup();
    RetreatPlan::Paths(out)
}

/// Where a unit that cannot retreat goes (SR 12.3, EX 12.3): off the map to Broken Box 1,
/// otherwise Broken Box 3; artillery is eliminated either way, a Fragile unit when blocked (and,
/// since it never enters the Broken Track, off the map too, SR 12.8).
#[must_use]
pub fn failed_retreat(unit: &CombatUnit, off_map: bool) -> Status {
    if unit.ty.is_artillery() || unit.fragile() {
        Status::Eliminated
    } else if off_map {
        Status::Broken(1)
    } else {
        Status::Broken(3)
    }
}
