//! The GCACW rules as a state machine over the kernel's decision protocol: [`Gcacw`] holds the
//! static data of one scenario; the procedures live in the modules named after them
//! ([`crate::sequence`], [`crate::march`], [`crate::activation`], [`crate::actions`],
//! [`crate::transfer`]). This module has the shared look-ups they use.

use std::sync::Arc;

use caisson_hexmap::{algorithms, Hex, HexFeature, HexRange, Map};
use caisson_kernel::{Describe, LogEntry, Pending, RuleError, Rules};

use crate::catalog::{Catalog, Counter, CounterType, Kind};
use crate::charts::{Charts, Half};
use crate::data::GameData;
use crate::scenario::{ClosedRetreat, Release, RuleKind, Scenario, SpecialRule};
use crate::state::{Leader, Loss, LossCause, Mount, Stage, State, Unit};
use crate::zoc::{self, Zoc};
use crate::Side;

/// Optional rules a game may be started with (GCACW 5.1 and the like).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The optional Fatigue-Level-4 march (GCACW 5.1).
    pub fatigue4_march: bool,
}

impl Settings {
    /// Reads `name=value` options.
    ///
    /// # Errors
    /// An unknown option.
    pub fn parse(options: &[String]) -> Result<Settings, String> {
        let mut s = Settings::default();
        for o in options {
            match o.as_str() {
                "fatigue4-march=on" => s.fatigue4_march = true,
                "fatigue4-march=off" => s.fatigue4_march = false,
                other => return Err(format!("unknown game option `{other}` (known: fatigue4-march=on|off)")),
            }
        }
        Ok(s)
    }
}

/// One GCACW scenario's rules and static data.
#[derive(Clone, Debug)]
pub struct Gcacw {
    pub(crate) data: Arc<GameData>,
    pub(crate) scenario: usize,
    pub(crate) settings: Settings,
    /// Unit index in the state of each catalog counter.
    pub(crate) unit_of: Vec<Option<usize>>,
    /// Leader index in the state of each catalog counter.
    pub(crate) leader_of: Vec<Option<usize>>,
    /// The Manpower of all the scenario's units at the start, arrivals included
    /// ([`crate::invariants`]: what is left plus the ledger's losses is always this).
    pub(crate) start_manpower: u32,
}

thread_local! {
    /// [`Gcacw::zoc_of`]'s last grid on this thread, for each side (Union, Confederate).
    static ZOC_MEMO: std::cell::RefCell<[Option<ZocMemo>; 2]> = const { std::cell::RefCell::new([None, None]) };
}

/// A zone-of-control grid and all it was worked out from. The game data is held weakly, so its
/// allocation (and address) cannot be taken by other data while the memo is kept.
struct ZocMemo {
    data: std::sync::Weak<GameData>,
    hexes: Vec<Hex>,
    rain: bool,
    fords_closed: bool,
    bridges: crate::bridges::Bridges,
    grid: Vec<Zoc>,
}

impl ZocMemo {
    /// Whether this grid is the one of these units' hexes in this game's state.
    fn is(&self, data: &Arc<GameData>, hexes: &[Hex], state: &State, fords_closed: bool) -> bool {
        self.hexes == hexes
            && self.rain == state.rain
            && self.fords_closed == fords_closed
            && std::ptr::eq(self.data.as_ptr(), Arc::as_ptr(data))
            && self.bridges == state.bridges
    }
}

/// What just happened, for [`Gcacw::update_releases`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReleaseEvent {
    /// This unit moved or was placed ([`Gcacw::relocate`]).
    Moved(usize),
    /// This unit ended its March.
    Ended(usize),
    /// The enemy's combat dice fell on the units in this hex (GCACW 7.4).
    Attacked(Hex),
}

impl Gcacw {
    /// Rules for a scenario and its starting state.
    ///
    /// # Errors
    /// Unknown scenario, or a set-up that breaks the rules (a leader with no unit to carry him).
    pub fn new(data: Arc<GameData>, scenario: &str, settings: Settings) -> Result<(Gcacw, State), String> {
        let si = data.scenario(scenario).ok_or_else(|| format!("no scenario `{scenario}`"))?;
        let sc = &data.scenarios[si];
        let cat = &data.catalog;
        let mut unit_of = vec![None; cat.counters.len()];
        let mut leader_of = vec![None; cat.counters.len()];
        let mut units = Vec::new();
        let mut leaders = Vec::new();
        let mut pending_leaders = Vec::new();
        for row in &sc.setup {
            let ci = cat.index(&row.counter).ok_or_else(|| format!("unknown counter {}", row.counter))?;
            let c = cat.get(ci);
            match c.kind {
                Kind::Unit => {
                    unit_of[ci] = Some(units.len());
                    units.push(Unit {
                        counter: ci as u16,
                        hex: Some(row.hex),
                        manpower: row.manpower.unwrap_or(1),
                        organized: !row.disorganized,
                        exhausted: row.exhausted,
                        fatigue: row.fatigue,
                        demoralized: row.demoralized,
                        entrenchment: row.entrenchment,
                        eliminated: false,
                        mount: Mount::Mounted,
                    });
                }
                Kind::Leader => pending_leaders.push((ci, row.hex)),
            }
        }
        for row in &sc.arrival {
            if let Some(ci) = cat.index(&row.counter) {
                if cat.get(ci).kind == Kind::Unit && unit_of[ci].is_none() {
                    unit_of[ci] = Some(units.len());
                    units.push(Unit {
                        counter: ci as u16,
                        hex: None,
                        manpower: row.manpower.unwrap_or(1),
                        organized: true,
                        exhausted: row.exhausted,
                        fatigue: row.fatigue,
                        demoralized: 0,
                        entrenchment: None,
                        eliminated: false,
                        mount: Mount::Mounted,
                    });
                }
            }
        }
        // HSN-A 7.0: the substitute counters wait off the map, with no Manpower, until detached.
        for r in sc.rules() {
            if let RuleKind::Substitutes(s) = r {
                for id in s.pools.iter().flat_map(|p| &p.counters) {
                    let ci = cat.index(id).ok_or_else(|| format!("unknown substitute counter {id}"))?;
                    if cat.get(ci).kind == Kind::Unit && unit_of[ci].is_none() {
                        unit_of[ci] = Some(units.len());
                        units.push(Unit {
                            counter: ci as u16,
                            hex: None,
                            manpower: 0,
                            organized: true,
                            exhausted: false,
                            fatigue: 0,
                            demoralized: 0,
                            entrenchment: None,
                            eliminated: false,
                            mount: Mount::Mounted,
                        });
                    }
                }
            }
        }
        // HSN-A 5.5: units that carry an Unmounted counter from the start (Sc 6/7 Biddle).
        for r in sc.rules() {
            if let RuleKind::Unmounted { counters } = r {
                for unit in &mut units {
                    if counters.contains(&cat.get(unit.counter as usize).id) {
                        unit.mount = Mount::Unmounted;
                    }
                }
            }
        }
        let start_manpower = units.iter().map(|u| u32::from(u.manpower)).sum();
        let mut rules =
            Gcacw { data: data.clone(), scenario: si, settings, unit_of, leader_of: Vec::new(), start_manpower };
        for (ci, hex) in pending_leaders {
            let with = units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.hex == Some(hex))
                .map(|(i, _)| i)
                .find(|&u| rules.may_attach_counter(ci, units[u].counter as usize))
                .or_else(|| {
                    units
                        .iter()
                        .position(|u| u.hex == Some(hex) && cat.get(u.counter as usize).ty != CounterType::Wagon)
                })
                .ok_or_else(|| {
                    format!("set-up of {scenario}: leader {} in {hex} has no unit to be attached to", cat.get(ci).name)
                })?;
            leader_of[ci] = Some(leaders.len());
            leaders.push(Leader { counter: ci as u16, with: Some(with) });
        }
        for row in &sc.arrival {
            if let Some(ci) = cat.index(&row.counter) {
                if cat.get(ci).kind == Kind::Leader && leader_of[ci].is_none() {
                    leader_of[ci] = Some(leaders.len());
                    leaders.push(Leader { counter: ci as u16, with: None });
                }
            }
        }
        rules.leader_of = leader_of;
        // HSN-A 6.0: after the Death of Cleburne his unit carries the replacement counter; both ids
        // name it.
        for r in sc.rules() {
            if let RuleKind::DeathOfCleburne { counter, replacement } = r {
                if let (Some(c), Some(rep)) = (cat.index(counter), cat.index(replacement)) {
                    if rules.unit_of[rep].is_none() {
                        rules.unit_of[rep] = rules.unit_of[c];
                    }
                }
            }
            // HSN-A 2.2 Grant Relieves Thomas: the army leader's counter may flip to Logan; both ids
            // name the same leader.
            if let RuleKind::RandomEvents(t) = r {
                if let (Some(c), Some(rep)) = (cat.index(&t.grant.leader), cat.index(&t.grant.replacement)) {
                    if rules.leader_of[rep].is_none() {
                        rules.leader_of[rep] = rules.leader_of[c];
                    }
                }
            }
        }
        // HSN-A 5.2: a remounted A-version brigade carries its B counter; both ids name it.
        if let Some(mounts) = crate::mounts::table_of(sc) {
            for rep in &mounts.replacements {
                if let (Some(a), Some(b)) = (cat.index(&rep.from), cat.index(&rep.to)) {
                    if rules.unit_of[b].is_none() {
                        rules.unit_of[b] = rules.unit_of[a];
                    }
                }
            }
        }
        let mut state = State {
            turn: 1,
            units,
            leaders,
            stations: Default::default(),
            bridges: Default::default(),
            stage: Stage::Over,
            phase: crate::sequence::Phase::ALL[0],
            campaign: crate::campaign::Campaign::default(),
            events: crate::events::Events::default(),
            activation: None,
            automatic: sc.initiative.automatic.clone(),
            gained: [false; 2],
            rain: false,
            activated_once: Default::default(),
            flanks_refused: Default::default(),
            hood_corps: None,
            losses: Vec::new(),
            gains: Vec::new(),
            reinforcement: Default::default(),
            rail_used: Default::default(),
            flags: Default::default(),
            released: Default::default(),
            arrivals_due: 0,
            automatic_action: false,
            arrival_fatigue: 0,
            arriving: None,
            log: Vec::new(),
        };
        state.note(format!("{} — {} ({} turns from {}).", sc.id, sc.name, sc.turns, sc.first_date), Some(&sc.source));
        if let Some(level) = crate::events::army_initiative_start(&rules) {
            state.campaign.army_initiative = level;
        }
        crate::sequence::start_turn(&rules, &mut state);
        Ok((rules, state))
    }

    /// The scenario.
    #[must_use]
    pub fn scenario(&self) -> &Scenario {
        &self.data.scenarios[self.scenario]
    }

    /// The map.
    #[must_use]
    pub fn map(&self) -> &Map {
        &self.data.map
    }

    /// The charts.
    #[must_use]
    pub fn charts(&self) -> &Charts {
        &self.data.charts
    }

    /// Counters and commands.
    #[must_use]
    pub fn catalog(&self) -> &Catalog {
        &self.data.catalog
    }

    /// Printed values of a unit.
    #[must_use]
    pub fn unit_counter(&self, state: &State, u: usize) -> &Counter {
        self.catalog().get(state.units[u].counter as usize)
    }

    /// Printed values of a leader.
    #[must_use]
    pub fn leader_counter(&self, state: &State, l: usize) -> &Counter {
        self.catalog().get(state.leaders[l].counter as usize)
    }

    /// A unit's side.
    #[must_use]
    pub fn unit_side(&self, state: &State, u: usize) -> Side {
        self.unit_counter(state, u).side
    }

    /// A unit's name.
    #[must_use]
    pub fn unit_name(&self, state: &State, u: usize) -> String {
        self.unit_counter(state, u).name.clone()
    }

    /// A unit's stable id.
    #[must_use]
    pub fn unit_id(&self, state: &State, u: usize) -> &str {
        &self.unit_counter(state, u).id
    }

    /// The unit with a counter id.
    #[must_use]
    pub fn unit_by_id(&self, id: &str) -> Option<usize> {
        self.catalog().index(id).and_then(|c| self.unit_of[c])
    }

    /// The leader with a counter id.
    #[must_use]
    pub fn leader_by_id(&self, id: &str) -> Option<usize> {
        self.catalog().index(id).and_then(|c| self.leader_of[c])
    }

    /// Where a leader is.
    #[must_use]
    pub fn leader_hex(&self, state: &State, l: usize) -> Option<Hex> {
        state.leaders[l].with.and_then(|u| state.units[u].hex)
    }

    /// Units on the map, with their hexes.
    pub fn on_map<'s>(&self, state: &'s State) -> impl Iterator<Item = (usize, Hex)> + 's {
        state.units.iter().enumerate().filter_map(|(i, u)| u.hex.map(|h| (i, h)))
    }

    /// A unit's type.
    #[must_use]
    pub fn unit_type(&self, state: &State, u: usize) -> CounterType {
        if self.unmounted(state, u) {
            return CounterType::Infantry;
        }
        self.unit_counter(state, u).ty
    }

    /// Whether a cavalry unit is unmounted (HSN-A 5.5): its marker is on the Unmounted side (from
    /// the set-up, Sc 6/7 Biddle, or the Union Cavalry Phase, [`crate::mounts`]). It then counts
    /// as infantry everywhere but in its march roll, which [`crate::march`] halves.
    #[must_use]
    pub fn unmounted(&self, state: &State, u: usize) -> bool {
        state.units[u].mount == Mount::Unmounted && self.unit_counter(state, u).ty == CounterType::Cavalry
    }

    /// A unit's current Combat value (GCACW 2.2, 7.2): its Manpower when organized, the
    /// disorganized side's value otherwise.
    #[must_use]
    pub fn combat_value(&self, state: &State, u: usize) -> Half {
        let unit = &state.units[u];
        if unit.organized {
            Half::whole(u16::from(unit.manpower))
        } else {
            self.charts().disorganized_cv(unit.manpower)
        }
    }

    /// The side occupying a hex, if any.
    #[must_use]
    pub fn occupant(&self, state: &State, hex: Hex) -> Option<Side> {
        self.on_map(state).find(|&(_, h)| h == hex).map(|(u, _)| self.unit_side(state, u))
    }

    /// Zones of control exerted by the units of `side`. The grid depends only on the map, where
    /// the side's units stand, the bridges, rain and closed fords: the last one worked out for
    /// each side on this thread is kept ([`ZocMemo`]) and given again while those stay the same,
    /// as they do over most of a search's playouts, which ask for it on every march.
    #[must_use]
    pub fn zoc_of(&self, state: &State, side: Side) -> Vec<Zoc> {
        let hexes: Vec<Hex> =
            self.on_map(state).filter(|&(u, _)| self.unit_side(state, u) == side).map(|(_, h)| h).collect();
        let fords_closed = crate::combat::unfordable(self, state);
        ZOC_MEMO.with_borrow_mut(|memo| {
            let slot = &mut memo[usize::from(side == Side::Confederate)];
            if let Some(m) = slot.as_ref().filter(|m| m.is(&self.data, &hexes, state, fords_closed)) {
                return m.grid.clone();
            }
            let grid = zoc::grid(self.map(), &state.bridges, hexes.iter().copied(), state.rain, fords_closed);
            let data = Arc::downgrade(&self.data);
            let bridges = state.bridges.clone();
            *slot = Some(ZocMemo { data, hexes, rain: state.rain, fords_closed, bridges, grid: grid.clone() });
            grid
        })
    }

    /// Who occupies each hex and the zones of control of both sides, computed once for a query.
    #[must_use]
    pub fn board(&self, state: &State) -> Board {
        let map = self.map();
        let mut occupant = vec![None; map.index_len()];
        for (u, h) in self.on_map(state) {
            if let Some(i) = map.index(h) {
                occupant[i] = Some(self.unit_side(state, u));
            }
        }
        Board { occupant, zoc: [self.zoc_of(state, Side::Union), self.zoc_of(state, Side::Confederate)] }
    }

    /// Hexes in a leader's command radius (GCACW 2.5): paths of at most three hexes that enter
    /// no enemy-occupied hex and no enemy ZOC hex unless a friendly unit is there.
    #[must_use]
    pub fn command_radius(&self, state: &State, l: usize, board: &Board) -> Vec<Hex> {
        let Some(start) = self.leader_hex(state, l) else {
            return Vec::new();
        };
        let side = self.leader_counter(state, l).side;
        let map = self.map();
        // HSN-A 8.0: a standing Union fort counts as a Union-occupied hex for Confederate ZOC, and
        // Confederate command radius never enters one.
        let forts = crate::combat::forts_in_play(self, state).undestroyed;
        algorithms::within(map, start, 3, |h| {
            let Some(i) = map.index(h) else { return false };
            let fort = forts.contains(&h);
            let occ = if fort && side == Side::Union { Some(Side::Union) } else { board.occupant[i] };
            if occ == Some(side.enemy()) || (fort && side == Side::Confederate) {
                return false;
            }
            board.zoc[crate::state::side_index(side.enemy())][i] == Zoc::None || occ == Some(side)
        })
        .into_iter()
        .map(|(h, _)| h)
        .collect()
    }

    /// Whether a leader counter may be attached to a unit counter (GCACW 2.1; HSN-B 2.2): army and
    /// district leaders to subordinate infantry, other leaders to units of their own command.
    #[must_use]
    pub fn may_attach_counter(&self, leader: usize, unit: usize) -> bool {
        let cat = self.catalog();
        let (l, u) = (cat.get(leader), cat.get(unit));
        if !cat.commands_unit(leader, unit) {
            return false;
        }
        match l.ty {
            CounterType::Army | CounterType::District => u.ty == CounterType::Infantry,
            _ => u.ty != CounterType::Wagon,
        }
    }

    /// Whether the leader counter `leader` commands unit `u` in play (GCACW 2.1): as
    /// [`Catalog::commands_unit`], with a substitute in its parent's command (HSN-A 7.1).
    #[must_use]
    pub fn commands(&self, state: &State, leader: usize, u: usize) -> bool {
        let cat = self.catalog();
        let (l, c) = (cat.get(leader), self.unit_counter(state, u));
        l.side == c.side
            && (l.ty == CounterType::Army || cat.within(l.side, crate::substitute::command(self, state, u), &l.command))
    }

    /// Whether the leader counter `leader` may be attached to unit `u` in play: as
    /// [`Gcacw::may_attach_counter`], with a substitute in its parent's command (HSN-A 7.1).
    #[must_use]
    pub fn may_attach(&self, state: &State, leader: usize, u: usize) -> bool {
        let (l, c) = (self.catalog().get(leader), self.unit_counter(state, u));
        if !self.commands(state, leader, u) {
            return false;
        }
        match l.ty {
            CounterType::Army | CounterType::District => c.ty == CounterType::Infantry,
            _ => c.ty != CounterType::Wagon,
        }
    }

    /// Whether a scenario special rule keeps a counter from activating now (e.g. HSN Sc 2 turn-1
    /// restrictions), unless an event has freed it ([`Gcacw::update_releases`]).
    #[must_use]
    pub fn restricted(&self, state: &State, counter: usize) -> bool {
        self.held_by(state, counter, false)
    }

    /// Whether a scenario special rule keeps a leader from transferring now: only those that
    /// say so (HSN Sc 2 and Sc 9 Union Unit Restrictions (a)); a rule that bars activating alone
    /// leaves the Leader Transfer Phase open (Sc 3 and Sc 4 Turn 1).
    #[must_use]
    pub fn transfer_barred(&self, state: &State, counter: usize) -> bool {
        self.held_by(state, counter, true)
    }

    fn held_by(&self, state: &State, counter: usize, transfers: bool) -> bool {
        let id = &self.catalog().get(counter).id;
        !state.released.contains(&(counter as u16))
            && self.scenario().rules().any(|r| match r {
                RuleKind::NoActivation { counters, turns, until_turn, no_transfer, .. }
                    if counters.iter().any(|c| c == id) && (*no_transfer || !transfers) =>
                {
                    turns.contains(&state.turn) || until_turn.is_some_and(|t| state.turn < t)
                }
                _ => false,
            })
    }

    /// Whether unit `u` may act only once in the actions of a scenario's automatic initiatives
    /// (HSN Sc 4 Turn 1), and those actions are under way.
    #[must_use]
    pub fn opening_once(&self, state: &State, u: usize) -> bool {
        state.automatic_action
            && self.scenario().rules().any(
                |r| matches!(r, RuleKind::Opening { no_repeat, .. } if no_repeat.contains(&self.unit_type(state, u))),
            )
    }

    /// A scenario's minimum die for a Movement Allowance roll in the actions of its automatic
    /// initiatives (HSN Sc 4 Turn 1), for a mover of this type, with the rule's source.
    #[must_use]
    pub fn opening_min_die(&self, state: &State, mover: CounterType) -> Option<(u8, &str)> {
        if !state.automatic_action {
            return None;
        }
        self.scenario().special_rule.iter().find_map(|r| match &r.kind {
            RuleKind::Opening { min_die, min_die_for, .. } if min_die_for.contains(&mover) => {
                Some((*min_die, r.source.as_str()))
            }
            _ => None,
        })
    }

    fn counter_hex(&self, state: &State, counter: usize) -> Option<Hex> {
        match self.catalog().get(counter).kind {
            Kind::Unit => self.unit_of[counter].and_then(|u| state.units[u].hex),
            Kind::Leader => self.leader_of[counter].and_then(|l| self.leader_hex(state, l)),
        }
    }

    /// Frees counters whose scenario restriction has been lifted by what just happened: an enemy
    /// unit moving next to them or into the rule's county, (`Ended`) an enemy unit ending its
    /// March one or two hexes away, or (`Attacked`) an enemy attack on their hex. Called on every
    /// move, at the end of every March and on every attack.
    pub fn update_releases(&self, state: &mut State, event: ReleaseEvent) {
        let mover = match event {
            ReleaseEvent::Moved(u) | ReleaseEvent::Ended(u) => {
                state.units[u].hex.map(|h| (self.unit_side(state, u), h, self.map().county(h)))
            }
            ReleaseEvent::Attacked(_) => None,
        };
        for kind in self.scenario().rules() {
            let RuleKind::NoActivation { counters, release, county, group, .. } = kind else { continue };
            let ids = || counters.iter().filter_map(|c| self.catalog().index(c));
            let freed: Vec<usize> = ids()
                .filter(|&c| {
                    let side = self.catalog().get(c).side;
                    let Some(hex) = self.counter_hex(state, c) else { return false };
                    let enemy_at = mover.filter(|&(s, _, _)| s == side.enemy());
                    release.iter().any(|r| match r {
                        Release::EnemyAdjacent => enemy_at.is_some_and(|(_, h, _)| h.distance(hex) == 1),
                        Release::EnemyMarchWithin2 => {
                            matches!(event, ReleaseEvent::Ended(_))
                                && enemy_at.is_some_and(|(_, h, _)| (1..=2).contains(&h.distance(hex)))
                        }
                        Release::EnemyInCounty => enemy_at.is_some_and(|(_, _, c)| c == county.as_deref()),
                        Release::Attacked => event == ReleaseEvent::Attacked(hex),
                    })
                })
                .filter(|&c| self.restricted(state, c))
                .collect();
            if freed.is_empty() {
                continue;
            }
            let freed = if *group { ids().collect() } else { freed };
            let names: Vec<String> = freed.iter().map(|&c| self.catalog().get(c).name.clone()).collect();
            state.released.extend(freed.iter().map(|&c| c as u16));
            state.note(
                format!("Freed from the scenario's restriction: {}.", names.join(", ")),
                Some(&self.scenario().source),
            );
        }
    }

    /// Whether a side may not enter a hex under a scenario rule that holds on every turn, or
    /// HSN-B 10.0 (5805 and 5806 are off the map for the Confederate player). Rules limited to
    /// some turns are left out: [`Gcacw::prohibited_on`] adds them.
    #[must_use]
    pub fn prohibited(&self, side: Side, hex: Hex) -> bool {
        self.prohibited_at(side, hex, None)
    }

    /// The source of the scenario rule under which a retreat of `side` may enter `hex` on `turn`
    /// though the side may not move there, the stack then leaving the game with no VP penalty
    /// (HSN Sc 6 Union Movement Restrictions: `retreat = "removed-no-vp"`).
    #[must_use]
    pub fn retreat_removes(&self, side: Side, hex: Hex, turn: u16) -> Option<&str> {
        self.scenario().special_rule.iter().find_map(|r| match &r.kind {
            RuleKind::ProhibitedHexes { side: s, hexes, turns, retreat }
                if *s == side
                    && *retreat == ClosedRetreat::RemovedNoVp
                    && (turns.is_empty() || turns.contains(&turn))
                    && hexes.iter().any(|h: &HexRange| h.contains(hex)) =>
            {
                Some(r.source.as_str())
            }
            _ => None,
        })
    }

    /// Whether a side may not enter a hex on `turn`: [`Gcacw::prohibited`] and the prohibited
    /// hexes of rules limited to some turns (HSN Sc 9 Union 01XX/02XX hexrows on Turns 1–5).
    #[must_use]
    pub fn prohibited_on(&self, side: Side, hex: Hex, turn: u16) -> bool {
        self.prohibited_at(side, hex, Some(turn))
    }

    fn prohibited_at(&self, side: Side, hex: Hex, turn: Option<u16>) -> bool {
        if side == Side::Confederate && (hex == Hex::new(58, 5) || hex == Hex::new(58, 6)) {
            return true;
        }
        self.scenario().rules().any(|r| match r {
            RuleKind::ProhibitedHexes { side: s, hexes, turns, .. } => {
                *s == side
                    && (turns.is_empty() || turn.is_some_and(|t| turns.contains(&t)))
                    && hexes.iter().any(|r: &HexRange| r.contains(hex))
            }
            RuleKind::ProhibitedRadius { side: s, centers, radius } => {
                *s == side && centers.iter().any(|c| c.distance(hex) <= *radius)
            }
            RuleKind::HarpethStrip { rows_at_most } => hex.row <= *rows_at_most && self.south_of_harpeth(hex),
            _ => false,
        })
    }

    /// Whether a hex is south of the Duck River.
    #[must_use]
    pub fn south_of_duck(&self, hex: Hex) -> bool {
        self.map().index(hex).is_some_and(|i| self.data.regions.south_of_duck.get(i).copied().unwrap_or(false))
    }

    /// Whether a hex is south of the Harpeth River (HSN Sc 7; see [`south_of_harpeth`]).
    #[must_use]
    pub fn south_of_harpeth(&self, hex: Hex) -> bool {
        self.map().index(hex).is_some_and(|i| self.data.regions.south_of_harpeth.get(i).copied().unwrap_or(false))
    }

    /// The flag that records the lifting of a [`RuleKind::Barred`] rule for a counter.
    fn barred_flag(counter: &str) -> String {
        format!("released/{counter}")
    }

    /// The scenario rule that bars unit `u` from entering `hex` now (or, with
    /// `attack`, from attacking into it), if any (HSN Sc 7 movement restrictions; HSN Sc 9 Union
    /// Unit Restrictions (d), which bar entering but not attacking).
    #[must_use]
    pub fn barred(&self, state: &State, u: usize, hex: Hex, attack: bool) -> Option<&SpecialRule> {
        self.barring(state, u, attack).find(|r| self.bars_hex(r, hex))
    }

    /// Which hexes unit `u` is [`Self::barred`] from entering now, by map index; empty if none.
    #[must_use]
    pub fn barred_hexes(&self, state: &State, u: usize) -> Vec<bool> {
        let rules: Vec<&SpecialRule> = self.barring(state, u, false).collect();
        if rules.is_empty() {
            return Vec::new();
        }
        let map = self.map();
        let mut barred = vec![false; map.index_len()];
        for h in map.hexes() {
            if let Some(i) = map.index(h) {
                barred[i] = rules.iter().any(|r| self.bars_hex(r, h));
            }
        }
        barred
    }

    /// The scenario rules that bar unit `u` from some hexes now, before asking which hexes.
    fn barring<'a>(&'a self, state: &State, u: usize, attack: bool) -> impl Iterator<Item = &'a SpecialRule> + use<'a> {
        let counter = self.unit_counter(state, u);
        let id = counter.id.as_str();
        let turn = state.turn;
        // Whether a rule lifted by a hex has been lifted for it (asked only of such a unit).
        let released = self.scenario().rules().any(
            |r| matches!(r, RuleKind::Barred { counters, until_hex: Some(_), .. } if counters.iter().any(|c| c == id)),
        ) && state.flags.contains_key(&Self::barred_flag(id));
        // HSN Sc 9 (d): the bar holds until the turn is past the Last Turn of Winter; before
        // winter has started it holds (the marker is not yet on the track).
        let winter_over = state.campaign.winter.is_some_and(|w| state.turn > w.last);
        self.scenario().special_rule.iter().filter(move |r| match &r.kind {
            RuleKind::CommandsBarred { side, commands, .. } => {
                !attack && !winter_over && *side == counter.side && commands.contains(&counter.command)
            }
            RuleKind::Barred { counters, attacks, turns, until_hex, .. } => {
                counters.iter().any(|c| c == id)
                    && (!attack || *attacks)
                    && (turns.is_empty() || turns.contains(&turn))
                    && (until_hex.is_none() || !released)
            }
            _ => false,
        })
    }

    /// Whether `hex` lies in the area a rule of [`Self::barring`] bars.
    fn bars_hex(&self, rule: &SpecialRule, hex: Hex) -> bool {
        match &rule.kind {
            RuleKind::CommandsBarred { max_column, .. } => hex.col <= *max_column,
            RuleKind::Barred { counties, counties_north_of_duck, south_of_harpeth, .. } => {
                let county = self.map().county(hex);
                county.is_some_and(|c| counties.iter().any(|k| k == c))
                    || (!self.south_of_duck(hex)
                        && county.is_some_and(|c| counties_north_of_duck.iter().any(|k| k == c)))
                    || (*south_of_harpeth && self.south_of_harpeth(hex))
            }
            _ => false,
        }
    }

    /// The [`RuleKind::Barred`] rule pinning leader `l` to its unit now, if any: such a leader may
    /// not transfer (HSN Sc 7 Forrest and Ross).
    #[must_use]
    pub fn pinned(&self, state: &State, l: usize) -> Option<&SpecialRule> {
        let leader = &self.leader_counter(state, l).id;
        self.scenario().special_rule.iter().find(|r| match &r.kind {
            RuleKind::Barred { counters, leaders, .. } => {
                leaders.contains(leader) && !counters.iter().any(|c| state.flags.contains_key(&Self::barred_flag(c)))
            }
            _ => false,
        })
    }

    /// Lifts the [`RuleKind::Barred`] rules whose release hex unit `u` has just entered.
    fn lift_bars(&self, state: &mut State, u: usize, to: Hex) {
        let id = self.unit_id(state, u).to_string();
        for r in &self.scenario().special_rule {
            let RuleKind::Barred { counters, until_hex: Some(h), .. } = &r.kind else { continue };
            if *h == to && counters.contains(&id) && !state.flags.contains_key(&Self::barred_flag(&id)) {
                for c in counters {
                    state.flags.insert(Self::barred_flag(c), i32::from(state.turn));
                }
                state.note(
                    format!(
                        "{} enters {}: the rule \"{}\" is lifted.",
                        self.unit_name(state, u),
                        self.map().label(to),
                        r.title
                    ),
                    Some(&r.source),
                );
            }
        }
    }

    /// Whether a unit stands in a redoubt it benefits from: in HSN only Union units do
    /// (HSN-B 9.0).
    #[must_use]
    pub fn in_redoubt(&self, state: &State, u: usize) -> bool {
        self.unit_side(state, u) == Side::Union
            && state.units[u].hex.is_some_and(|h| self.map().has_feature(h, HexFeature::Redoubt))
    }

    /// Moves a unit to a hex; an entrenchment marker stays behind (GCACW 9.0: it is removed the
    /// moment the unit leaves its hex), scenario restrictions the move lifts are lifted (an enemy
    /// unit coming next to a held one mid-march, HSN Sc 2 and 9), and the victory conditions take
    /// note of the move. Every change of position goes through here.
    pub fn relocate(&self, state: &mut State, u: usize, to: Hex) {
        let unit = &mut state.units[u];
        if unit.hex != Some(to) {
            unit.entrenchment = None;
        }
        state.units[u].hex = Some(to);
        tidy_flanks(state);
        self.lift_bars(state, u, to);
        self.update_releases(state, ReleaseEvent::Moved(u));
        crate::wagons::on_enter(self, state, u, to);
        crate::victory::observe(self, state);
    }

    /// Whether a hex has a railroad station.
    #[must_use]
    pub fn is_station(&self, hex: Hex) -> bool {
        self.map().has_feature(hex, HexFeature::Station)
    }

    /// Removes a unit from play; leaders it carried move to the nearest subordinate unit, or are
    /// eliminated if none is left (GCACW 6.3).
    pub fn eliminate(&self, state: &mut State, u: usize, why: &str) {
        let from = state.units[u].hex;
        state.units[u].hex = None;
        state.units[u].eliminated = true;
        tidy_flanks(state);
        state.units[u].manpower = 0;
        state.note(format!("{} is eliminated ({why}).", self.unit_name(state, u)), Some("GCACW 6.3"));
        for l in 0..state.leaders.len() {
            if state.leaders[l].with != Some(u) {
                continue;
            }
            let lc = state.leaders[l].counter as usize;
            if let Some(rule) = self.pinned(state, l) {
                state.leaders[l].with = None;
                let name = self.catalog().get(lc).name.clone();
                state.note(
                    format!("{name} is removed from the game with his unit ({}).", rule.title),
                    Some(&rule.source),
                );
                continue;
            }
            let best = self
                .on_map(state)
                .filter(|&(v, _)| self.may_attach(state, lc, v))
                .min_by_key(|&(_, h)| from.map_or(0, |f| f.distance(h)))
                .map(|(v, _)| v);
            state.leaders[l].with = best;
            let name = self.catalog().get(lc).name.clone();
            match best.and_then(|v| state.units[v].hex) {
                Some(h) => state.note(
                    format!("{name} moves to the nearest subordinate unit, in {}.", self.map().label(h)),
                    Some("GCACW 6.3"),
                ),
                None => {
                    state.note(format!("{name} has no subordinate unit left and is eliminated."), Some("GCACW 6.3"))
                }
            }
        }
    }

    /// Takes Manpower from a unit, recording the loss and its cause (victory points count some
    /// causes and not others); at zero it is eliminated. The new marker is disorganized.
    pub fn lose_manpower(&self, state: &mut State, u: usize, loss: u8, cause: LossCause, why: &str, rule: &str) {
        let unit = &mut state.units[u];
        let taken = loss.min(unit.manpower);
        unit.manpower -= taken;
        unit.organized = false;
        let left = unit.manpower;
        state.losses.push(Loss { turn: state.turn, unit: u, amount: taken, cause });
        state.note(
            format!("{} loses {loss} Manpower ({why}); now {left}, disorganized.", self.unit_name(state, u)),
            Some(rule),
        );
        if left == 0 {
            self.eliminate(state, u, why);
        }
    }
}

/// A Flanks Refused marker never leaves with a unit: it goes when its hex is empty (GCACW 7.8).
pub(crate) fn tidy_flanks(state: &mut State) {
    let occupied: std::collections::BTreeSet<Hex> = state.units.iter().filter_map(|u| u.hex).collect();
    state.flanks_refused.retain(|h| occupied.contains(h));
}

/// Occupation and zones of control of the whole map at one moment.
pub struct Board {
    /// The side occupying each hex, by map index.
    pub occupant: Vec<Option<Side>>,
    /// Zones of control exerted by the Union (0) and Confederate (1) units, by map index.
    pub zoc: [Vec<Zoc>; 2],
}

impl Rules for Gcacw {
    type State = State;

    fn pending(&self, state: &State) -> Pending {
        crate::sequence::pending(self, state)
    }

    fn choose(&self, state: &mut State, option: &str) -> Result<(), RuleError> {
        crate::sequence::choose(self, state, option)
    }

    fn roll(&self, state: &mut State, dice: &[u8]) -> Result<(), RuleError> {
        if dice.iter().any(|d| !(1..=6).contains(d)) {
            return Err(RuleError::BadRoll(format!("{dice:?}")));
        }
        crate::sequence::roll(self, state, dice)
    }

    fn view(&self, state: &State, _side: Option<&str>) -> serde_json::Value {
        // GCACW has no hidden information in the Basic Game: both sides see everything.
        crate::view::view(self, state)
    }

    fn log<'s>(&self, state: &'s State) -> &'s [LogEntry] {
        &state.log
    }

    fn check(&self, state: &State) -> Result<(), String> {
        crate::invariants::check(self, state)
    }
}

impl Describe for Gcacw {
    fn summary(&self, state: &State) -> String {
        crate::view::summary(self, state)
    }
}
