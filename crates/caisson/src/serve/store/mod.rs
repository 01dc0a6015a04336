//! Where served games live: a game is its record (setup, mode, computer side, seat tokens) plus
//! its list of actions. [`Store`] is the interface, with two implementations of one schema:
//! [`sqlite::SqliteStore`] (embedded, the default) and [`postgres::PgStore`] (a server, for hosting
//! many games behind several `caisson serve` processes).
//!
//! Every change is one transaction that first checks the game's `revision` (bumped by every
//! change, undo included) and then writes under the `(game_id, seq)` primary key, so two writers
//! that saw the same game can never both apply: the second gets [`StoreError::Conflict`]. Nothing
//! about a game is kept outside the database, so any number of server processes may share one.

pub mod postgres;
pub mod sqlite;

use std::sync::Arc;

use caisson_kernel::Setup;

use super::seats::{Mode, Seat};

/// What identifies a served game apart from its actions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The game id (in URLs).
    pub id: String,
    /// Scenario, seed, dice mode, options.
    pub setup: Setup,
    /// Hot-seat, against the computer, or online.
    pub mode: Mode,
    /// The computer's side (computer mode only).
    pub computer: Option<String>,
    /// The computer player (`caisson_ai::Bot` name, e.g. `ai-normal` or `random`); games stored
    /// before there was a choice have none and play `random`.
    pub bot: Option<String>,
    /// Each seat's secret token.
    pub tokens: Vec<(Seat, String)>,
    /// Creation time, seconds since the Unix epoch.
    pub created: i64,
}

/// Where a game stands in the store: its action count and its change counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Head {
    /// Actions stored.
    pub seq: u64,
    /// Changes made since creation (actions and undos); two equal heads mean the same actions.
    pub revision: u64,
}

/// Why a store operation failed.
#[derive(Debug, PartialEq, Eq)]
pub enum StoreError {
    /// The game changed since the caller read it (or the id is taken): nothing was written.
    Conflict,
    /// No such game.
    NotFound,
    /// The database failed or holds something unreadable.
    Db(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Conflict => write!(f, "the game changed meanwhile"),
            StoreError::NotFound => write!(f, "no such game"),
            StoreError::Db(e) => write!(f, "database: {e}"),
        }
    }
}

/// Persistence for served games. Every method commits before it returns.
pub trait Store: Send + Sync {
    /// Stores a new game with its first actions (a computer's opening moves, an imported save's).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id is taken.
    fn create(&self, game: &GameRecord, actions: &[String]) -> Result<Head, StoreError>;

    /// Where a game stands, or `None` if there is no such game.
    ///
    /// # Errors
    /// The database failed.
    fn head(&self, id: &str) -> Result<Option<Head>, StoreError>;

    /// A game's record, actions and head, read together.
    ///
    /// # Errors
    /// The database failed or holds an unreadable record.
    fn load(&self, id: &str) -> Result<Option<(GameRecord, Vec<String>, Head)>, StoreError>;

    /// Appends actions to a game that is still at `base`.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game has moved on from `base`.
    fn append(&self, id: &str, base: Head, actions: &[String]) -> Result<Head, StoreError>;

    /// Keeps only the first `keep` actions of a game that is still at `base` (undo).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the game has moved on from `base`.
    fn truncate(&self, id: &str, base: Head, keep: u64) -> Result<Head, StoreError>;
}

/// Opens the store a `--database` URL names: `sqlite:PATH`, `sqlite::memory:`, or
/// `postgres://USER@HOST[:PORT]/DATABASE` (any libpq-style URL; the tables are created if missing).
///
/// # Errors
/// An unsupported URL, or a database that cannot be opened or reached.
pub fn open(url: &str) -> Result<Arc<dyn Store>, String> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let path = path.strip_prefix("//").unwrap_or(path);
        if path.is_empty() {
            return Err("`sqlite:` needs a file name, e.g. `sqlite:caisson.db` (or `sqlite::memory:`)".to_string());
        }
        return Ok(Arc::new(sqlite::SqliteStore::open(path).map_err(|e| format!("{url}: {e}"))?));
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(Arc::new(postgres::PgStore::open(url)?));
    }
    Err(format!(
        "unknown database `{url}`: use `sqlite:FILE` (e.g. `sqlite:caisson.db`) or `postgres://USER@HOST/DATABASE`"
    ))
}

/// Whether a game that is now at `now` (`None`: no such game) is still at `base`.
fn check_base(now: Option<Head>, base: Head) -> Result<(), StoreError> {
    match now {
        None => Err(StoreError::NotFound),
        Some(now) if now == base => Ok(()),
        Some(_) => Err(StoreError::Conflict),
    }
}

fn int(n: u64) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Db(format!("{n} is too large for the database")))
}

fn uint(n: i64) -> Result<u64, StoreError> {
    u64::try_from(n).map_err(|_| StoreError::Db(format!("negative count {n} in the database")))
}

/// A game record's columns as both databases store them (text for the setup and the tokens).
struct Row {
    setup: String,
    mode: String,
    computer: Option<String>,
    bot: Option<String>,
    tokens: String,
    created: i64,
}

impl Row {
    fn of(game: &GameRecord) -> Result<Row, StoreError> {
        Ok(Row {
            setup: serde_json::to_string(&game.setup).map_err(|e| StoreError::Db(e.to_string()))?,
            mode: game.mode.as_str().to_string(),
            computer: game.computer.clone(),
            bot: game.bot.clone(),
            tokens: tokens_json(&game.tokens),
            created: game.created,
        })
    }

    fn record(self, id: &str) -> Result<GameRecord, StoreError> {
        let mode = self.mode;
        Ok(GameRecord {
            id: id.to_string(),
            setup: serde_json::from_str(&self.setup)
                .map_err(|e| StoreError::Db(format!("game {id}: unreadable setup: {e}")))?,
            mode: Mode::parse(&mode).ok_or_else(|| StoreError::Db(format!("game {id}: unknown mode `{mode}`")))?,
            computer: self.computer,
            bot: self.bot,
            tokens: parse_tokens(&self.tokens)?,
            created: self.created,
        })
    }
}

/// Checks that the actions read are numbered 1 to the head's `seq`.
fn complete(id: &str, actions: &[String], head: Head) -> Result<(), StoreError> {
    if actions.len() as u64 == head.seq {
        Ok(())
    } else {
        Err(StoreError::Db(format!("game {id}: the stored actions are not numbered 1 to {}", head.seq)))
    }
}

fn tokens_json(tokens: &[(Seat, String)]) -> String {
    let map: serde_json::Map<String, serde_json::Value> =
        tokens.iter().map(|(s, t)| (s.as_str().to_string(), serde_json::Value::String(t.clone()))).collect();
    serde_json::Value::Object(map).to_string()
}

fn parse_tokens(text: &str) -> Result<Vec<(Seat, String)>, StoreError> {
    let bad = || StoreError::Db(format!("unreadable seat tokens `{text}`"));
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text).map_err(|_| bad())?;
    map.into_iter()
        .map(|(seat, token)| Ok((Seat::parse(&seat).ok_or_else(bad)?, token.as_str().ok_or_else(bad)?.to_string())))
        .collect()
}
