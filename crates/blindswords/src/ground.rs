//! [SR 12.3, EX 12.3] The ground a retreat crosses, read from the game state: the map's grid
//! (Perryville's parity), the scenario's playable area as the map edge, the hexes and hexsides
//! the unit's type may not cross (the Terrain Effects Chart through [`movement::cost`]: artillery
//! into Woods or over the Chaplin only by road, ford or bridge, artillery and cavalry over a Steep
//! Slope only by road), enemy units and their adjacency, stacking, and the Chaplin crossed off a
//! ford or bridge.

use caisson_hexmap::{Hex, Hexside};

use crate::cohesion::{EnemyNear, RetreatGround};
use crate::movement::{self, Board};
use crate::rules::BlindSwords;
use crate::state::State;

/// The ground for one retreating unit.
pub struct StateGround<'a> {
    rules: &'a BlindSwords,
    state: &'a State,
    board: Board<'a>,
    unit: usize,
    causers: Vec<usize>,
}

impl<'a> StateGround<'a> {
    /// The ground for `unit`'s retreat, `causers` the enemy units that caused it (the firers or
    /// the other side of the Close Combat: SR 12.3's first priority).
    #[must_use]
    pub fn new(rules: &'a BlindSwords, state: &'a State, unit: usize, causers: Vec<usize>) -> StateGround<'a> {
        StateGround { rules, state, board: Board::new(&rules.data().map, state), unit, causers }
    }

    fn enemy_in(&self, hex: Hex) -> bool {
        let side = self.state.units[self.unit].side;
        self.board.units(hex).any(|i| self.state.units[i].side != side)
    }
}

impl RetreatGround for StateGround<'_> {
    fn around(&self, hex: Hex) -> Vec<Hex> {
        let map = &self.rules.data().map;
        caisson_hexmap::Direction::ALL.into_iter().map(|d| map.neighbor(hex, d)).collect()
    }

    fn distance(&self, a: Hex, b: Hex) -> u16 {
        self.rules.data().map.distance(a, b)
    }

    fn on_map(&self, hex: Hex) -> bool {
        self.rules.data().map.contains(hex) && self.rules.scenario().area.contains(hex)
    }

    fn may_enter(&self, from: Hex, to: Hex) -> bool {
        let u = &self.state.units[self.unit];
        !self.enemy_in(to) && movement::cost(self.rules, u.ty, None, u.skirmish, Some(from), to).is_some()
    }

    fn enemy_near(&self, hex: Hex) -> EnemyNear {
        let side = self.state.units[self.unit].side;
        let mut near = EnemyNear::None;
        for (_, n) in self.rules.data().map.neighbors(hex) {
            for i in self.board.units(n).filter(|i| self.state.units[*i].side != side) {
                near = near.max(if self.causers.contains(&i) { EnemyNear::Causer } else { EnemyNear::Other });
            }
        }
        near
    }

    fn fits(&self, hex: Hex) -> bool {
        !self.enemy_in(hex)
            && movement::stacking_fault(self.rules, self.state, &self.board, hex, Some(self.unit)).is_none()
    }

    fn crosses_river(&self, from: Hex, to: Hex) -> bool {
        let side = self.rules.data().map.hexside(from, to);
        side.contains(Hexside::TACTICAL_RIVER) && !side.intersects(Hexside::FORD.union(Hexside::BRIDGE))
    }
}
