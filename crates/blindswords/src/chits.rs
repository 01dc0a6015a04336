//! [SR 7.3] Drawing a chit at random, as a die roll. The kernel's only chance is six-sided
//! dice, so a draw from N chits rolls two d6 (36 outcomes) or, for more than 36 chits, three
//! (216): the outcome, read as a base-6 number, picks chit `outcome mod N` when it falls below
//! the largest multiple of N, and is rolled again otherwise (rejection sampling: every chit is
//! equally likely). Manual dice, logs and replays work as for any other roll.

/// How many d6 a draw from `n` chits rolls.
#[must_use]
pub const fn dice_for(n: usize) -> u8 {
    if n <= 36 {
        2
    } else {
        3
    }
}

/// The chit (`0..n`) that `dice` pick, or `None` when the outcome falls beyond the largest
/// multiple of `n` and must be rolled again. `None` too for dice that are not 1-6 or too few.
#[must_use]
pub fn pick(n: usize, dice: &[u8]) -> Option<usize> {
    if n == 0 || dice.len() != usize::from(dice_for(n)) || dice.iter().any(|d| !(1..=6).contains(d)) {
        return None;
    }
    let outcomes = 6usize.pow(u32::try_from(dice.len()).unwrap_or(0));
    let value = dice.iter().fold(0usize, |acc, d| acc * 6 + usize::from(d - 1));
    let limit = outcomes - outcomes % n;
    (value < limit).then_some(value % n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every chit of a cup of any size from 1 to 60 is picked by exactly as many outcomes.
    #[test]
    fn every_chit_equally_likely() {
        for n in 1..=60 {
            let k = dice_for(n);
            let mut hits = vec![0u32; n];
            let mut rerolls = 0;
            let total = 6u32.pow(u32::from(k));
            for v in 0..total {
                let dice: Vec<u8> =
                    (0..k).rev().map(|p| u8::try_from(v / 6u32.pow(u32::from(p)) % 6 + 1).unwrap_or(0)).collect();
                match pick(n, &dice) {
                    Some(i) => hits[i] += 1,
                    None => rerolls += 1,
                }
            }
            assert!(hits.iter().all(|h| *h == hits[0] && *h > 0), "cup of {n}: {hits:?}");
            assert!(rerolls < n as u32, "cup of {n}: {rerolls} rerolls");
        }
    }

    #[test]
    fn bad_dice_pick_nothing() {
        assert_eq!(pick(5, &[1]), None);
        assert_eq!(pick(5, &[0, 3]), None);
        assert_eq!(pick(0, &[1, 1]), None);
        assert_eq!(pick(5, &[1, 2]), Some(1));
        // 36 outcomes over 5 chits: 35 is beyond the last multiple (35) and is rolled again.
        assert_eq!(pick(5, &[6, 6]), None);
    }
}
