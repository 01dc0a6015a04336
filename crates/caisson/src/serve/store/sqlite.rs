//! The SQLite store: one embedded file, the default (`--database sqlite:caisson.db`).

use std::sync::{Mutex, MutexGuard};

use rusqlite::{params, Connection, ErrorCode, OptionalExtension, TransactionBehavior};

use super::{check_base, complete, int, uint, GameRecord, Head, Row, Store, StoreError};

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

fn insert_actions(conn: &Connection, id: &str, from: u64, actions: &[String]) -> Result<(), StoreError> {
    let mut insert =
        conn.prepare_cached("INSERT INTO actions (game_id, seq, option) VALUES (?1, ?2, ?3)").map_err(db)?;
    for (seq, option) in (from + 1..).zip(actions) {
        insert.execute(params![id, int(seq)?, option]).map_err(db)?;
    }
    Ok(())
}

impl Store for SqliteStore {
    fn create(&self, game: &GameRecord, actions: &[String]) -> Result<Head, StoreError> {
        let row = Row::of(game)?;
        let mut conn = self.conn()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db)?;
        tx.execute(
            "INSERT INTO games (id, setup, mode, computer, bot, tokens, created, revision) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0)",
            params![game.id, row.setup, row.mode, row.computer, row.bot, row.tokens, row.created],
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
        let row = tx
            .query_row(
                "SELECT setup, mode, computer, bot, tokens, created FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok(Row {
                        setup: r.get(0)?,
                        mode: r.get(1)?,
                        computer: r.get(2)?,
                        bot: r.get(3)?,
                        tokens: r.get(4)?,
                        created: r.get(5)?,
                    })
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
        complete(id, &actions, head)?;
        Ok(Some((row.record(id)?, actions, head)))
    }

    fn append(&self, id: &str, base: Head, actions: &[String]) -> Result<Head, StoreError> {
        let mut conn = self.conn()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db)?;
        check_base(read_head(&tx, id)?, base)?;
        insert_actions(&tx, id, base.seq, actions)?;
        tx.execute("UPDATE games SET revision = revision + 1 WHERE id = ?1", params![id]).map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(Head { seq: base.seq + actions.len() as u64, revision: base.revision + 1 })
    }

    fn truncate(&self, id: &str, base: Head, keep: u64) -> Result<Head, StoreError> {
        let mut conn = self.conn()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db)?;
        check_base(read_head(&tx, id)?, base)?;
        tx.execute("DELETE FROM actions WHERE game_id = ?1 AND seq > ?2", params![id, int(keep)?]).map_err(db)?;
        tx.execute("UPDATE games SET revision = revision + 1 WHERE id = ?1", params![id]).map_err(db)?;
        tx.commit().map_err(db)?;
        Ok(Head { seq: keep.min(base.seq), revision: base.revision + 1 })
    }
}
