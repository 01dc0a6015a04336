//! Computer players for Caisson games. They drive the same decision protocol as a human: they
//! read the pending [`Decision`](caisson_kernel::Decision) and answer with one of its option ids.
//!
//! Two layers:
//! - a **heuristic layer** ([`Heuristics`]): every option of a decision gets a prior score from the
//!   position alone, and a position gets a value for a side. The rule-system-specific part lives in
//!   a module named after the system ([`gcacw`]);
//! - a **search layer** ([`search`]): in the decisions worth it, the best-prior candidates are
//!   each tried in copies of the game, played on by the heuristic policy to the end of the turn
//!   with dice of the player's own (never the game's: a computer player must not see the dice to
//!   come), and a candidate whose mean value beats the best prior's clearly is chosen. An
//!   iteration budget per [`Level`] trades strength for time, and a given seed always gives the
//!   same choice.

pub mod gcacw;
pub mod liddell;
pub mod search;

pub use search::{decide, Heuristics, Level, Searched};

use caisson_kernel::{random_choice, Dice, DynGame};

/// Who plays a side: the random player or the computer opponent at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bot {
    /// Uniformly random among the offered options.
    Random,
    /// The computer opponent.
    Ai(Level),
    /// The Liddell-bot of Perryville's solo variant (EX 16.0d, [`liddell`]); in a game of another
    /// system it plays like the random player.
    Liddell,
}

impl Bot {
    /// Every bot name, as the command line and the web API spell them.
    pub const NAMES: [&'static str; 6] = ["random", "ai", "ai-easy", "ai-normal", "ai-hard", "liddell"];

    /// The bot of a name (`ai` is the default level).
    #[must_use]
    pub fn parse(name: &str) -> Option<Bot> {
        Some(match name {
            "random" => Bot::Random,
            "liddell" => Bot::Liddell,
            "ai" => Bot::Ai(Level::default()),
            other => Bot::Ai(Level::parse(other.strip_prefix("ai-")?)?),
        })
    }

    /// The bot's name (`ai-normal`, `random`).
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Bot::Random => "random".to_string(),
            Bot::Ai(level) => format!("ai-{}", level.name()),
            Bot::Liddell => "liddell".to_string(),
        }
    }

    /// The option this bot picks in the pending decision of `game`, or `None` when the game is
    /// over. `seed` makes the choice reproducible. The computer opponent plays the rule systems it
    /// knows (GCACW), the Liddell-bot Blind Swords; in a game of another system each plays like
    /// the random player.
    #[must_use]
    pub fn choose(self, game: &dyn DynGame, seed: u64) -> Option<String> {
        self.choose_searched(game, seed).map(|s| s.choice)
    }

    /// [`Bot::choose`], with the playouts its search ran (none but the computer opponent's).
    #[must_use]
    pub fn choose_searched(self, game: &dyn DynGame, seed: u64) -> Option<Searched> {
        let decision = game.pending()?;
        let plain = |choice: String| Some(Searched { choice, ..Searched::default() });
        if let Bot::Ai(level) = self {
            if let Some(searched) = advise(game, level, seed) {
                return Some(searched);
            }
        }
        if self == Bot::Liddell {
            if let Some(g) = game.as_any().downcast_ref::<caisson_kernel::Game<caisson_blindswords::BlindSwords>>() {
                // The deciding side's view only: never the state (hidden chits, the cup).
                let view = game.view(Some(&decision.side));
                return plain(liddell::choose(g.rules(), &view, &decision, seed));
            }
        }
        plain(random_choice(&decision, &mut Dice::new(seed)).to_string())
    }
}

/// What the computer opponent at `level` would choose in the pending decision of `game`, for a
/// player who asks for a hint: `None` when the game is over, when the decision is a die to enter
/// by hand (no choice), or when its rule system is not one the computer opponent knows (GCACW):
/// it never guesses at random. The GCACW games hide nothing from either side, so it reads the
/// whole position as any player may.
#[must_use]
pub fn advise(game: &dyn DynGame, level: Level, seed: u64) -> Option<Searched> {
    let decision = game.pending().filter(|d| d.kind != "roll")?;
    let g = game.as_any().downcast_ref::<caisson_kernel::Game<caisson_gcacw::Gcacw>>()?;
    let h = gcacw::GcacwHeuristics::new(g.rules());
    Some(search::search(g.rules(), g.state(), &decision, &h, level.budget(), seed))
}

/// The seed of a bot's choice in a game: a function of the game's seed and the number of choices
/// made so far, so a stored game replays to the same choices (the web server and bot matches use
/// it).
#[must_use]
pub fn bot_seed(game_seed: u64, choices: u64) -> u64 {
    game_seed ^ choices.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
