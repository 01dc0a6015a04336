//! Seeded, portable dice: ChaCha8 from a 64-bit seed, the same on every platform and version.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// The dice of one game.
#[derive(Clone, Debug)]
pub struct Dice {
    rng: ChaCha8Rng,
}

impl Dice {
    /// Dice for a seed.
    #[must_use]
    pub fn new(seed: u64) -> Dice {
        Dice { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// One six-sided die, unbiased (rejection sampling).
    pub fn d6(&mut self) -> u8 {
        // 4_294_967_292 is the largest multiple of 6 that fits in a u32.
        loop {
            let x = self.rng.next_u32();
            if x < 4_294_967_292 {
                return (x % 6) as u8 + 1;
            }
        }
    }

    /// `n` six-sided dice.
    pub fn roll(&mut self, n: u8) -> Vec<u8> {
        (0..n).map(|_| self.d6()).collect()
    }

    /// A number in `0..n` (for random players), unbiased.
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let n = n as u64;
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.rng.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_dice_and_all_faces_appear() {
        let mut da = Dice::new(7);
        let mut db = Dice::new(7);
        let a: Vec<u8> = (0..600).map(|_| da.d6()).collect();
        let b: Vec<u8> = (0..600).map(|_| db.d6()).collect();
        assert_eq!(a, b);
        for face in 1..=6 {
            let n = a.iter().filter(|&&d| d == face).count();
            assert!((60..=140).contains(&n), "face {face} came up {n} times in 600");
        }
        assert_ne!(Dice::new(8).roll(20), Dice::new(7).roll(20));
    }

    /// Portability: ChaCha8 from seed 1 gives this sequence on every platform and every version.
    /// Both sequences were checked against an independent ChaCha8 implementation (rand_core's PCG32
    /// seed expansion, 8 rounds, nonce 0, words taken in order, rejection at 4_294_967_292).
    #[test]
    fn sequence_is_pinned() {
        assert_eq!(Dice::new(1).roll(10), vec![6, 3, 6, 1, 4, 2, 1, 1, 4, 2]);
        let mut d = Dice::new(1);
        let one_by_one: Vec<u8> = (0..10).map(|_| d.d6()).collect();
        assert_eq!(one_by_one, vec![6, 3, 6, 1, 4, 2, 1, 1, 4, 2]);
        let mut d = Dice::new(1);
        let below: Vec<usize> = (0..10).map(|_| d.below(1000)).collect();
        assert_eq!(below, vec![201, 795, 285, 466, 733, 64, 951, 310, 35, 880]);
    }
}
