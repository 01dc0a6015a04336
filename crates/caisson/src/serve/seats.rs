//! Seats at a served game, their secret tokens, and who may act when.

use std::fmt::Write;

/// How a game is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Both sides at one table, one token.
    Hotseat,
    /// One side played by the server's bot, the other at the table.
    Computer,
    /// Each side on its own device with its own token.
    Online,
}

impl Mode {
    /// The id used in requests and in the database.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Hotseat => "hotseat",
            Mode::Computer => "computer",
            Mode::Online => "online",
        }
    }

    /// The mode of an id.
    #[must_use]
    pub fn parse(s: &str) -> Option<Mode> {
        [Mode::Hotseat, Mode::Computer, Mode::Online].into_iter().find(|m| m.as_str() == s)
    }

    /// The seats a game of this mode hands out.
    #[must_use]
    pub fn seats(self) -> &'static [Seat] {
        match self {
            Mode::Hotseat | Mode::Computer => &[Seat::Table],
            Mode::Online => &[Seat::Union, Seat::Confederate],
        }
    }
}

/// Who holds a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Seat {
    /// Both sides (hot-seat), or the human side against the computer.
    Table,
    /// The Union side only.
    Union,
    /// The Confederate side only.
    Confederate,
}

/// The side ids a seat may stand for (shared by the American Civil War series).
pub const SIDES: [&str; 2] = ["union", "confederate"];

impl Seat {
    /// The seat's id.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Seat::Table => "table",
            Seat::Union => "union",
            Seat::Confederate => "confederate",
        }
    }

    /// The seat of an id.
    #[must_use]
    pub fn parse(s: &str) -> Option<Seat> {
        [Seat::Table, Seat::Union, Seat::Confederate].into_iter().find(|m| m.as_str() == s)
    }

    /// The side whose view the seat gets (`None`: the table sees everything).
    #[must_use]
    pub fn side(self) -> Option<&'static str> {
        match self {
            Seat::Table => None,
            Seat::Union => Some("union"),
            Seat::Confederate => Some("confederate"),
        }
    }

    /// The side whose view the seat is sent, given the computer's side if any: against the
    /// computer the table is one person, who sees only the human side's view (the computer's
    /// hidden information, such as Blind Swords' held chits, stays on the server).
    #[must_use]
    pub fn view_side(self, computer: Option<&str>) -> Option<&'static str> {
        match (self.side(), computer) {
            (None, Some(c)) => SIDES.into_iter().find(|s| *s != c),
            (own, _) => own,
        }
    }

    /// Whether the seat may decide for `side`, given the computer's side if any.
    #[must_use]
    pub fn may_act(self, side: &str, computer: Option<&str>) -> bool {
        match self.side() {
            None => computer != Some(side),
            Some(own) => own == side,
        }
    }
}

/// `bytes` random bytes from the operating system, as lowercase hex.
///
/// # Errors
/// The operating system has no randomness to give.
pub fn random_hex(bytes: usize) -> Result<String, String> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| format!("no randomness from the operating system: {e}"))?;
    let mut out = String::with_capacity(bytes * 2);
    for b in &buf {
        let _ = write!(out, "{b:02x}");
    }
    Ok(out)
}

/// A fresh seat token: 128 random bits.
///
/// # Errors
/// The operating system has no randomness to give.
pub fn new_token() -> Result<String, String> {
    random_hex(16)
}

/// Compares a presented token with a stored one in time that depends only on their lengths.
#[must_use]
pub fn same_token(presented: &str, stored: &str) -> bool {
    let (a, b) = (presented.as_bytes(), stored.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The seat a token opens among a game's tokens.
#[must_use]
pub fn seat_of(tokens: &[(Seat, String)], presented: &str) -> Option<Seat> {
    // Every token is compared, so the time does not tell which seat matched.
    tokens.iter().fold(None, |found, (seat, stored)| if same_token(presented, stored) { Some(*seat) } else { found })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_act_for_their_sides_only() {
        assert!(Seat::Table.may_act("union", None));
        assert!(Seat::Table.may_act("confederate", Some("union")));
        assert!(!Seat::Table.may_act("union", Some("union")));
        assert!(Seat::Union.may_act("union", None));
        assert!(!Seat::Union.may_act("confederate", None));
        assert!(!Seat::Confederate.may_act("union", None));
    }

    #[test]
    fn the_table_against_the_computer_sees_the_human_side_only() {
        assert_eq!(Seat::Table.view_side(None), None);
        assert_eq!(Seat::Table.view_side(Some("confederate")), Some("union"));
        assert_eq!(Seat::Table.view_side(Some("union")), Some("confederate"));
        assert_eq!(Seat::Union.view_side(None), Some("union"));
        assert_eq!(Seat::Confederate.view_side(Some("union")), Some("confederate"));
    }

    #[test]
    fn tokens_are_random_hex_and_compare_exactly() {
        let a = new_token().unwrap_or_default();
        let b = new_token().unwrap_or_default();
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        let tokens = vec![(Seat::Union, a.clone()), (Seat::Confederate, b.clone())];
        assert_eq!(seat_of(&tokens, &a), Some(Seat::Union));
        assert_eq!(seat_of(&tokens, &b), Some(Seat::Confederate));
        assert_eq!(seat_of(&tokens, &a[..31]), None);
        assert_eq!(seat_of(&tokens, ""), None);
    }
}
