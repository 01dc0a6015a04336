//! Where served games live: a game is its record (setup, mode, computer side, seat tokens) plus
//! its list of actions. [`Store`] is the interface; [`SqliteStore`] the one implementation.
//!
//! Every change is one transaction that first checks the game's `revision` (bumped by every
//! change, undo included) and then writes under the `(game_id, seq)` primary key, so two writers
//! that saw the same game can never both apply: the second gets [`StoreError::Conflict`].

use std::sync::{Mutex, MutexGuard};

use caisson_kernel::Setup;
use rusqlite::{params, Connection, ErrorCode, OptionalExtension, TransactionBehavior};

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

/// Opens the store a `--database` URL names: `sqlite:PATH` or `sqlite::memory:`.
///
/// # Errors
/// An unsupported URL, or a database that cannot be opened.
pub fn open(url: &str) -> Result<SqliteStore, String> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let path = path.strip_prefix("//").unwrap_or(path);
        if path.is_empty() {
            return Err("`sqlite:` needs a file name, e.g. `sqlite:caisson.db` (or `sqlite::memory:`)".to_string());
        }
        return SqliteStore::open(path).map_err(|e| format!("{url}: {e}"));
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Err("PostgreSQL is not supported yet: use `--database sqlite:FILE`".to_string());
    }
    Err(format!("unknown database `{url}`: use `sqlite:FILE`, e.g. `sqlite:caisson.db`"))
}

/// Games in one SQLite file (WAL journal, `synchronous=FULL`: a commit survives a crash).
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    mode TEXT NOT NULL,
    computer TEXT,
    bot TEXT,
    tokens TEXT NOT NULL,
    created INTEGER NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    option TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
";

fn db(e: rusqlite::Error) -> StoreError {
    match &e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == ErrorCode::ConstraintViolation => StoreError::Conflict,
        _ => StoreError::Db(e.to_string()),
    }
}

fn int(n: u64) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Db(format!("{n} is too large for the database")))
}

fn uint(n: i64) -> Result<u64, StoreError> {
    u64::try_from(n).map_err(|_| StoreError::Db(format!("negative count {n} in the database")))
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path` (`:memory:` for one in memory).
    ///
    /// # Errors
    /// The file cannot be opened or set up.
    pub fn open(path: &str) -> Result<SqliteStore, String> {
        let conn = Connection::open(path).map_err(|e| e.to_string())?;
        let setup = || -> rusqlite::Result<()> {
            conn.busy_timeout(std::time::Duration::from_secs(10))?;
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0))?;
            conn.pragma_update(None, "synchronous", "FULL")?;
            conn.pragma_update(None, "foreign_keys", "ON")?;
            conn.execute_batch(SCHEMA)?;
            // A database made before games had a `bot` column gets it (its games play `random`).
            let has_bot: i64 =
                conn.query_row("SELECT COUNT(*) FROM pragma_table_info('games') WHERE name = 'bot'", [], |r| r.get(0))?;
            if has_bot == 0 {
                conn.execute_batch("ALTER TABLE games ADD COLUMN bot TEXT")?;
            }
            Ok(())
        };
        setup().map_err(|e| e.to_string())?;
        Ok(SqliteStore { conn: Mutex::new(conn) })
    }

    fn conn(&self) -> Result<MutexGuard<'_, Connection>, StoreError> {
        self.conn.lock().map_err(|_| StoreError::Db("the connection was poisoned by a panic".to_string()))
    }
}

fn read_head(conn: &Connection, id: &str) -> Result<Option<Head>, StoreError> {
    let row = conn
        .query_row(
            "SELECT revision, (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?1) FROM games WHERE id = ?1",
            params![id],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)),
        )
        .optional()
        .map_err(db)?;
    row.map(|(revision, seq)| Ok(Head { seq: uint(seq)?, revision: uint(revision)? })).transpose()
}

/// Checks that a game is still at `base`, inside a write transaction.
fn check_base(conn: &Connection, id: &str, base: Head) -> Result<(), StoreError> {
    match read_head(conn, id)? {
        None => Err(StoreError::NotFound),
        Some(now) if now == base => Ok(()),
        Some(_) => Err(StoreError::Conflict),
    }
}

fn insert_actions(conn: &Connection, id: &str, from: u64, actions: &[String]) -> Result<(), StoreError> {
    let mut insert =
        conn.prepare_cached("INSERT INTO actions (game_id, seq, option) VALUES (?1, ?2, ?3)").map_err(db)?;
    for (seq, option) in (from + 1..).zip(actions) {
        insert.execute(params![id, int(seq)?, option]).map_err(db)?;
    }
    Ok(())
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

impl Store for SqliteStore {
    fn create(&self, game: &GameRecord, actions: &[String]) -> Result<Head, StoreError> {
        let mut conn = self.conn()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db)?;
        let setup = serde_json::to_string(&game.setup).map_err(|e| StoreError::Db(e.to_string()))?;
        tx.execute(
            "INSERT INTO games (id, setup, mode, computer, bot, tokens, created, revision) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0)",
            params![
                game.id,
                setup,
                game.mode.as_str(),
                game.computer,
                game.bot,
                tokens_json(&game.tokens),
                game.created
            ],
        )
        .map_err(db)?;
        insert_actions(&tx, &game.id, 0, actions)?;
        tx.commit().map_err(db)?;
        Ok(Head { seq: actions.len() as u64, revision: 0 })
    }

    fn head(&self, id: &str) -> Result<Option<Head>, StoreError> {
        read_head(&*self.conn()?, id)
    }

    fn load(&self, id: &str) -> Result<Option<(GameRecord, Vec<String>, Head)>, StoreError> {
        let mut conn = self.conn()?;
        // One read transaction: record, actions and head are one snapshot.
        let tx = conn.transaction().map_err(db)?;
        let Some(head) = read_head(&tx, id)? else { return Ok(None) };
        let (setup, mode, computer, bot, tokens, created) = tx
            .query_row(
                "SELECT setup, mode, computer, bot, tokens, created FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, Option<String>>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, i64>(5)?,
                    ))
                },
            )
            .map_err(db)?;
        let mut stmt = tx.prepare_cached("SELECT option FROM actions WHERE game_id = ?1 ORDER BY seq").map_err(db)?;
        let actions = stmt
            .query_map(params![id], |r| r.get::<_, String>(0))
            .map_err(db)?
            .collect::<Result<Vec<String>, _>>()
            .map_err(db)?;
        drop(stmt);
        tx.commit().map_err(db)?;
        if actions.len() as u64 != head.seq {
            return Err(StoreError::Db(format!("game {id}: the stored actions are not numbered 1 to {}", head.seq)));
        }
        let record = GameRecord {
            id: id.to_string(),
            setup: serde_json::from_str(&setup)
                .map_err(|e| StoreError::Db(format!("game {id}: unreadable setup: {e}")))?,
            mode: Mode::parse(&mode).ok_or_else(|| StoreError::Db(format!("game {id}: unknown mode `{mode}`")))?,
            computer,
            bot,
            tokens: parse_tokens(&tokens)?,
            created,
        };
        Ok(Some((record, actions, head)))
    }

    fn append(&self, id: &str, base: Head, actions: &[String]) -> Result<Head, StoreError> {
        let mut conn = self.conn()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db)?;
        check_base(&tx, id, base)?;
        insert_actions(&tx, id, base.seq, actions)?;
        tx.execute("UPDATE games SET revision = revision + 1 WHERE id = ?1", params![id]).map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(Head { seq: base.seq + actions.len() as u64, revision: base.revision + 1 })
    }

    fn truncate(&self, id: &str, base: Head, keep: u64) -> Result<Head, StoreError> {
        let mut conn = self.conn()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db)?;
        check_base(&tx, id, base)?;
        tx.execute("DELETE FROM actions WHERE game_id = ?1 AND seq > ?2", params![id, int(keep)?]).map_err(db)?;
        tx.execute("UPDATE games SET revision = revision + 1 WHERE id = ?1", params![id]).map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(Head { seq: keep.min(base.seq), revision: base.revision + 1 })
    }
}
