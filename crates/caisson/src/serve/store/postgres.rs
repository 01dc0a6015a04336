//! The PostgreSQL store (`--database postgres://USER@HOST/DATABASE`): the schema of the SQLite
//! store on a server, so several `caisson serve` processes behind a load balancer share the games.
//!
//! A change locks its game's row (`SELECT … FOR UPDATE`) before it compares the revision, so two
//! processes that both saw revision N queue on the lock and the second finds N+1: a conflict.

use std::time::Duration;

use r2d2_postgres::postgres::error::SqlState;
use r2d2_postgres::postgres::{Config, GenericClient, IsolationLevel, NoTls};
use r2d2_postgres::r2d2::{Pool, PooledConnection};
use r2d2_postgres::PostgresConnectionManager;

use super::{check_base, complete, int, uint, GameRecord, Head, Row, Store, StoreError};

type Manager = PostgresConnectionManager<NoTls>;

/// Games in a PostgreSQL database, through a small pool of connections.
pub struct PgStore {
    /// Always `Some` but while dropping.
    pool: Option<Pool<Manager>>,
}

/// The synchronous client closes a connection by running a small runtime of its own, which tokio
/// forbids on its threads, where the server drops its state when it stops: so the pool is closed
/// on a thread of its own.
impl Drop for PgStore {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.take() {
            // A panic while closing has nothing left to lose: the connections are gone either way.
            let _ = std::thread::spawn(move || drop(pool)).join();
        }
    }
}

/// The SQLite schema in PostgreSQL's types. An advisory lock keeps two processes that start
/// together from creating the tables at once.
const SCHEMA: &str = "
SELECT pg_advisory_xact_lock(7306117);
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    setup TEXT NOT NULL,
    mode TEXT NOT NULL,
    computer TEXT,
    bot TEXT,
    tokens TEXT NOT NULL,
    created BIGINT NOT NULL,
    revision BIGINT NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq BIGINT NOT NULL,
    option TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
";

/// Connections kept open; a request waits for a free one (the engine work is done outside).
const POOL_SIZE: u32 = 8;

/// How long a request (or the start-up) waits for a connection before it fails.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

fn db(e: &r2d2_postgres::postgres::Error) -> StoreError {
    match e.code() {
        Some(code) if *code == SqlState::UNIQUE_VIOLATION || *code == SqlState::T_R_SERIALIZATION_FAILURE => {
            StoreError::Conflict
        }
        _ => StoreError::Db(e.to_string()),
    }
}

impl PgStore {
    /// Connects to the database `url` names and creates the tables if they are missing.
    ///
    /// # Errors
    /// The URL cannot be read, the server cannot be reached in time, or the tables cannot be made.
    pub fn open(url: &str) -> Result<PgStore, String> {
        let config: Config = url.parse().map_err(|e| format!("the PostgreSQL URL cannot be read: {e}"))?;
        let pool = Pool::builder()
            .max_size(POOL_SIZE)
            .connection_timeout(CONNECT_TIMEOUT)
            .build(PostgresConnectionManager::new(config, NoTls))
            .map_err(|e| format!("cannot connect to PostgreSQL: {e}"))?;
        let store = PgStore { pool: Some(pool) };
        let setup = || -> Result<(), StoreError> {
            let mut client = store.client()?;
            let mut tx = client.transaction().map_err(|e| db(&e))?;
            tx.batch_execute(SCHEMA).map_err(|e| db(&e))?;
            tx.commit().map_err(|e| db(&e))
        };
        setup().map_err(|e| format!("cannot set up the PostgreSQL tables: {e}"))?;
        Ok(store)
    }

    fn client(&self) -> Result<PooledConnection<Manager>, StoreError> {
        let pool = self.pool.as_ref().ok_or_else(|| StoreError::Db("the store is closing".to_string()))?;
        pool.get().map_err(|e| StoreError::Db(format!("no PostgreSQL connection: {e}")))
    }
}

fn read_head(client: &mut impl GenericClient, id: &str) -> Result<Option<Head>, StoreError> {
    let row = client
        .query_opt(
            "SELECT revision, (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = $1) FROM games WHERE id = $1",
            &[&id],
        )
        .map_err(|e| db(&e))?;
    row.map(|r| Ok(Head { seq: uint(r.get(1))?, revision: uint(r.get(0))? })).transpose()
}

/// Locks a game's row for the rest of the transaction and reads where it stands.
fn lock_head(client: &mut impl GenericClient, id: &str) -> Result<Option<Head>, StoreError> {
    let locked = client.query_opt("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&id]).map_err(|e| db(&e))?;
    match locked {
        Some(_) => read_head(client, id),
        None => Ok(None),
    }
}

fn insert_actions(client: &mut impl GenericClient, id: &str, from: u64, actions: &[String]) -> Result<(), StoreError> {
    let insert =
        client.prepare("INSERT INTO actions (game_id, seq, option) VALUES ($1, $2, $3)").map_err(|e| db(&e))?;
    for (seq, option) in (from + 1..).zip(actions) {
        client.execute(&insert, &[&id, &int(seq)?, option]).map_err(|e| db(&e))?;
    }
    Ok(())
}

impl Store for PgStore {
    fn create(&self, game: &GameRecord, actions: &[String]) -> Result<Head, StoreError> {
        let row = Row::of(game)?;
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(|e| db(&e))?;
        tx.execute(
            "INSERT INTO games (id, setup, mode, computer, bot, tokens, created, revision) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 0)",
            &[&game.id, &row.setup, &row.mode, &row.computer, &row.bot, &row.tokens, &row.created],
        )
        .map_err(|e| db(&e))?;
        insert_actions(&mut tx, &game.id, 0, actions)?;
        tx.commit().map_err(|e| db(&e))?;
        Ok(Head { seq: actions.len() as u64, revision: 0 })
    }

    fn head(&self, id: &str) -> Result<Option<Head>, StoreError> {
        read_head(&mut *self.client()?, id)
    }

    fn load(&self, id: &str) -> Result<Option<(GameRecord, Vec<String>, Head)>, StoreError> {
        let mut client = self.client()?;
        // One snapshot for the record, the actions and the head.
        let mut tx = client
            .build_transaction()
            .isolation_level(IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()
            .map_err(|e| db(&e))?;
        let Some(head) = read_head(&mut tx, id)? else { return Ok(None) };
        let r = tx
            .query_one("SELECT setup, mode, computer, bot, tokens, created FROM games WHERE id = $1", &[&id])
            .map_err(|e| db(&e))?;
        let row = Row {
            setup: r.get(0),
            mode: r.get(1),
            computer: r.get(2),
            bot: r.get(3),
            tokens: r.get(4),
            created: r.get(5),
        };
        let actions: Vec<String> = tx
            .query("SELECT option FROM actions WHERE game_id = $1 ORDER BY seq", &[&id])
            .map_err(|e| db(&e))?
            .iter()
            .map(|r| r.get(0))
            .collect();
        tx.commit().map_err(|e| db(&e))?;
        complete(id, &actions, head)?;
        Ok(Some((row.record(id)?, actions, head)))
    }

    fn append(&self, id: &str, base: Head, actions: &[String]) -> Result<Head, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(|e| db(&e))?;
        check_base(lock_head(&mut tx, id)?, base)?;
        insert_actions(&mut tx, id, base.seq, actions)?;
        tx.execute("UPDATE games SET revision = revision + 1 WHERE id = $1", &[&id]).map_err(|e| db(&e))?;
        tx.commit().map_err(|e| db(&e))?;
        Ok(Head { seq: base.seq + actions.len() as u64, revision: base.revision + 1 })
    }

    fn truncate(&self, id: &str, base: Head, keep: u64) -> Result<Head, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(|e| db(&e))?;
        check_base(lock_head(&mut tx, id)?, base)?;
        tx.execute("DELETE FROM actions WHERE game_id = $1 AND seq > $2", &[&id, &int(keep)?]).map_err(|e| db(&e))?;
        tx.execute("UPDATE games SET revision = revision + 1 WHERE id = $1", &[&id]).map_err(|e| db(&e))?;
        tx.commit().map_err(|e| db(&e))?;
        Ok(Head { seq: keep.min(base.seq), revision: base.revision + 1 })
    }
}
