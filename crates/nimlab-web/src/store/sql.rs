//! One connection type over the website's two stores: an SQLite file (the default) and a
//! PostgreSQL server (several processes and machines on one database). Every query is
//! written once, in the SQL both understand, with SQLite's numbered parameters (`?1`), which
//! are rewritten to PostgreSQL's (`$1`) before they are sent.
//!
//! A row's columns are read by name: a table's column by its own (`s.id` is `id`), an
//! expression by the name `AS` gives it, in lower case (PostgreSQL folds unquoted names to
//! lower case, SQLite keeps them as written), unique within its SELECT.
//!
//! Values cross in five kinds ([`Value`]): a PostgreSQL value of another type is read as the
//! nearest of them (a `boolean` as 0 or 1, an `integer` as a 64-bit one), so a row reads the
//! same from either store, and a parameter is written as whatever type PostgreSQL inferred
//! for its place.

use postgres::types::{IsNull, ToSql as PgToSql, Type};
use rusqlite::types::{ToSqlOutput, ValueRef};
use std::fmt;
use std::sync::Arc;

/// A value a query takes or a row holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// What went wrong with a query.
#[derive(Debug)]
pub enum SqlError {
    /// `query_row` found no row (see [`Optional::optional`]).
    NoRows,
    Sqlite(rusqlite::Error),
    Postgres(postgres::Error),
    /// A column did not hold the kind of value asked for, or a value did not fit.
    Type(String),
    /// Anything else, said in words (a migration that would break the schema).
    Other(String),
}

pub type SqlResult<T> = Result<T, SqlError>;

impl fmt::Display for SqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SqlError::NoRows => f.write_str("the query returned no rows"),
            SqlError::Sqlite(e) => write!(f, "{e}"),
            SqlError::Postgres(e) => match e.as_db_error() {
                Some(db) => write!(f, "{}: {}", db.severity(), db.message()),
                // The driver's own words ("error connecting to server") say little without
                // their cause: refused, unknown host, a certificate not trusted.
                None => {
                    write!(f, "{e}")?;
                    let mut source = std::error::Error::source(e);
                    while let Some(cause) = source {
                        write!(f, ": {cause}")?;
                        source = cause.source();
                    }
                    Ok(())
                }
            },
            SqlError::Type(message) | SqlError::Other(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for SqlError {}

impl From<rusqlite::Error> for SqlError {
    fn from(e: rusqlite::Error) -> Self {
        match e {
            rusqlite::Error::QueryReturnedNoRows => SqlError::NoRows,
            e => SqlError::Sqlite(e),
        }
    }
}

impl From<postgres::Error> for SqlError {
    fn from(e: postgres::Error) -> Self {
        SqlError::Postgres(e)
    }
}

/// `query_row`'s "no row" as `None`, as rusqlite's `OptionalExtension` does.
pub trait Optional<T> {
    fn optional(self) -> SqlResult<Option<T>>;
}

impl<T> Optional<T> for SqlResult<T> {
    fn optional(self) -> SqlResult<Option<T>> {
        match self {
            Ok(value) => Ok(Some(value)),
            Err(SqlError::NoRows) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A Rust value a query can take as a parameter.
pub trait ToValue {
    fn to_value(&self) -> Value;
}

macro_rules! int_to_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> Value {
                Value::Int(i64::try_from(*self).unwrap_or(i64::MAX))
            }
        }
    )*};
}
int_to_value!(i64, i32, u32, u64, usize);

impl ToValue for bool {
    fn to_value(&self) -> Value {
        Value::Int(i64::from(*self))
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> Value {
        Value::Real(*self)
    }
}

impl ToValue for str {
    fn to_value(&self) -> Value {
        Value::Text(self.to_string())
    }
}

impl ToValue for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> Value {
        Value::Blob(self.to_vec())
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> Value {
        Value::Blob(self.clone())
    }
}

impl ToValue for Value {
    fn to_value(&self) -> Value {
        self.clone()
    }
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> Value {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToValue::to_value)
    }
}

/// A query's parameters: `[]`, an array of one type (`[id]`), or [`params!`]'s list.
pub trait Params {
    fn values(&self) -> Vec<Value>;
}

impl Params for [&dyn ToValue; 0] {
    fn values(&self) -> Vec<Value> {
        Vec::new()
    }
}

macro_rules! array_params {
    ($($n:literal),*) => {$(
        impl<T: ToValue> Params for [T; $n] {
            fn values(&self) -> Vec<Value> {
                self.iter().map(ToValue::to_value).collect()
            }
        }
    )*};
}
array_params!(1, 2, 3, 4, 5, 6, 7, 8);

impl Params for &[&dyn ToValue] {
    fn values(&self) -> Vec<Value> {
        self.iter().map(|v| v.to_value()).collect()
    }
}

impl Params for Vec<Value> {
    fn values(&self) -> Vec<Value> {
        self.clone()
    }
}

/// Parameters of several types: `params![id, name, now]`. Scoped to the crate (not exported
/// at its root), so the store's callers name it by the store's path.
macro_rules! sql_params {
    ($($value:expr),* $(,)?) => {
        &[$(&$value as &dyn $crate::store::sql::ToValue),*] as &[&dyn $crate::store::sql::ToValue]
    };
}
pub(crate) use sql_params as params;

/// A Rust value a column can be read as.
pub trait FromValue: Sized {
    fn from_value(value: &Value) -> SqlResult<Self>;
}

fn mismatch<T>(value: &Value, wanted: &str) -> SqlResult<T> {
    Err(SqlError::Type(format!(
        "a column holds {value:?}, not {wanted}"
    )))
}

macro_rules! int_from_value {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(value: &Value) -> SqlResult<Self> {
                match value {
                    Value::Int(n) => <$t>::try_from(*n)
                        .map_err(|_| SqlError::Type(format!("{n} does not fit {}", stringify!($t)))),
                    other => mismatch(other, stringify!($t)),
                }
            }
        }
    )*};
}
int_from_value!(i64, i32, u32, u64, usize);

impl FromValue for bool {
    fn from_value(value: &Value) -> SqlResult<Self> {
        match value {
            Value::Int(n) => Ok(*n != 0),
            other => mismatch(other, "a boolean"),
        }
    }
}

impl FromValue for f64 {
    fn from_value(value: &Value) -> SqlResult<Self> {
        match value {
            Value::Real(x) => Ok(*x),
            Value::Int(n) => Ok(*n as f64),
            other => mismatch(other, "a number"),
        }
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> SqlResult<Self> {
        match value {
            Value::Text(text) => Ok(text.clone()),
            other => mismatch(other, "text"),
        }
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: &Value) -> SqlResult<Self> {
        match value {
            Value::Blob(bytes) => Ok(bytes.clone()),
            Value::Text(text) => Ok(text.as_bytes().to_vec()),
            other => mismatch(other, "bytes"),
        }
    }
}

impl FromValue for Value {
    fn from_value(value: &Value) -> SqlResult<Self> {
        Ok(value.clone())
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> SqlResult<Self> {
        match value {
            Value::Null => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
}

/// How a row's column is named when it is read: by its name in the result (a table's
/// column, or what `AS` calls an expression). Rows are not read by position, so that a
/// SELECT's columns can change order, or gain one, without its readers reading the wrong one.
pub trait RowIndex {
    /// The column's position in the row, among the result's column names.
    fn position(self, columns: &[String]) -> SqlResult<usize>;
}

impl RowIndex for &str {
    fn position(self, columns: &[String]) -> SqlResult<usize> {
        let mut named = columns.iter().enumerate().filter(|(_, c)| *c == self);
        match (named.next(), named.next()) {
            (Some((position, _)), None) => Ok(position),
            (None, _) => Err(SqlError::Type(format!("a row has no column {self}"))),
            // `u.id` and `s.id` both come back as `id`: the query must tell them apart (`AS`).
            (Some(_), Some(_)) => Err(SqlError::Type(format!(
                "a row has more than one column {self}"
            ))),
        }
    }
}

/// One row of a result, read by column name. The names are the result's, shared by its rows.
#[derive(Debug, Clone)]
pub struct Row {
    columns: Arc<[String]>,
    values: Vec<Value>,
}

impl Row {
    pub fn get<I: RowIndex, T: FromValue>(&self, index: I) -> SqlResult<T> {
        let position = index.position(&self.columns)?;
        match self.values.get(position) {
            Some(value) => T::from_value(value),
            None => Err(SqlError::Type(format!("a row has no column {position}"))),
        }
    }

    /// The row's values, in the order of its result's columns (a table copied as it is).
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// The names of the row's columns, in the order of its values.
    pub fn columns(&self) -> &[String] {
        &self.columns
    }
}

/// Which store a connection talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// An open connection to either store.
pub enum Conn {
    Sqlite(rusqlite::Connection),
    Postgres(Client),
}

/// A PostgreSQL connection that may be dropped anywhere. The `postgres` crate's client runs
/// a small async runtime of its own, which cannot be closed from inside another one (the
/// server's): there it is closed on a thread of its own.
pub struct Client(Option<Box<postgres::Client>>);

impl Client {
    pub fn new(client: postgres::Client) -> Client {
        Client(Some(Box::new(client)))
    }
}

impl std::ops::Deref for Client {
    type Target = postgres::Client;
    fn deref(&self) -> &postgres::Client {
        self.0.as_ref().expect("a client is there until dropped")
    }
}

impl std::ops::DerefMut for Client {
    fn deref_mut(&mut self) -> &mut postgres::Client {
        self.0.as_mut().expect("a client is there until dropped")
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        if let Some(client) = self.0.take()
            && tokio::runtime::Handle::try_current().is_ok()
        {
            let _ = std::thread::Builder::new()
                .name("pg-close".into())
                .spawn(move || drop(client));
        }
    }
}

/// The advisory lock that serializes writing transactions on PostgreSQL, as SQLite's
/// `BEGIN IMMEDIATE` does on a file (see [`Conn::immediate`]).
const WRITER_LOCK: i64 = 0x6e69_6d6c_6162_0001;

impl Conn {
    pub fn dialect(&self) -> Dialect {
        match self {
            Conn::Sqlite(_) => Dialect::Sqlite,
            Conn::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Runs a statement; returns how many rows it changed.
    pub fn execute(&mut self, sql: &str, params: impl Params) -> SqlResult<usize> {
        let values = params.values();
        match self {
            Conn::Sqlite(c) => {
                let mut statement = c.prepare_cached(sql)?;
                Ok(statement.execute(rusqlite::params_from_iter(values.iter()))?)
            }
            Conn::Postgres(c) => {
                let sql = numbered_for_postgres(sql);
                let refs = pg_refs(&values);
                Ok(c.execute(sql.as_str(), &refs)? as usize)
            }
        }
    }

    /// Every row of a query, each read by `f`.
    pub fn query<T>(
        &mut self,
        sql: &str,
        params: impl Params,
        mut f: impl FnMut(&Row) -> SqlResult<T>,
    ) -> SqlResult<Vec<T>> {
        let values = params.values();
        match self {
            Conn::Sqlite(c) => {
                let mut statement = c.prepare_cached(sql)?;
                let columns = sqlite_columns(&statement);
                let mut rows = statement.query(rusqlite::params_from_iter(values.iter()))?;
                let mut out = Vec::new();
                while let Some(row) = rows.next()? {
                    out.push(f(&sqlite_row(row, &columns)?)?);
                }
                Ok(out)
            }
            Conn::Postgres(c) => {
                let sql = numbered_for_postgres(sql);
                let refs = pg_refs(&values);
                let rows = c.query(sql.as_str(), &refs)?;
                let Some(first) = rows.first() else {
                    return Ok(Vec::new());
                };
                let columns = postgres_columns(first);
                rows.iter()
                    .map(|row| f(&postgres_row(row, &columns)?))
                    .collect()
            }
        }
    }

    /// The first row of a query, read by `f`; [`SqlError::NoRows`] when there is none.
    pub fn query_row<T>(
        &mut self,
        sql: &str,
        params: impl Params,
        f: impl FnOnce(&Row) -> SqlResult<T>,
    ) -> SqlResult<T> {
        let values = params.values();
        let row = match self {
            Conn::Sqlite(c) => {
                let mut statement = c.prepare_cached(sql)?;
                let columns = sqlite_columns(&statement);
                let mut rows = statement.query(rusqlite::params_from_iter(values.iter()))?;
                match rows.next()? {
                    Some(row) => sqlite_row(row, &columns)?,
                    None => return Err(SqlError::NoRows),
                }
            }
            Conn::Postgres(c) => {
                let sql = numbered_for_postgres(sql);
                let refs = pg_refs(&values);
                // The statement runs once, and its first row is read, as SQLite's query_row
                // reads it; an error is the statement's own (running it again after a failure
                // would, inside a transaction, only report the transaction as aborted).
                match c.query(sql.as_str(), &refs)?.first() {
                    Some(row) => postgres_row(row, &postgres_columns(row))?,
                    None => return Err(SqlError::NoRows),
                }
            }
        };
        f(&row)
    }

    /// Statements without parameters, separated by `;` (schema changes).
    pub fn batch(&mut self, sql: &str) -> SqlResult<()> {
        match self {
            Conn::Sqlite(c) => Ok(c.execute_batch(sql)?),
            Conn::Postgres(c) => Ok(c.batch_execute(sql)?),
        }
    }

    /// A transaction that reads and writes as others may (SQLite's deferred one, PostgreSQL's
    /// READ COMMITTED); rolled back unless committed.
    pub fn transaction(&mut self) -> SqlResult<Tx<'_>> {
        self.batch("BEGIN")?;
        Ok(Tx {
            conn: self,
            open: true,
        })
    }

    /// A transaction that holds the store's one writer lock from its start, so what it reads
    /// no other writing transaction changes before it commits: SQLite's `BEGIN IMMEDIATE`,
    /// and on PostgreSQL an advisory lock every such transaction takes.
    pub fn immediate(&mut self) -> SqlResult<Tx<'_>> {
        match self {
            Conn::Sqlite(_) => self.batch("BEGIN IMMEDIATE")?,
            Conn::Postgres(_) => {
                self.batch("BEGIN")?;
                let locked = self.execute("SELECT pg_advisory_xact_lock(?1)", [WRITER_LOCK]);
                if let Err(e) = locked {
                    let _ = self.batch("ROLLBACK");
                    return Err(e);
                }
            }
        }
        Ok(Tx {
            conn: self,
            open: true,
        })
    }

    /// Whether the connection can still be used (a PostgreSQL server may have closed it).
    pub fn is_usable(&self) -> bool {
        match self {
            Conn::Sqlite(_) => true,
            Conn::Postgres(c) => !c.is_closed(),
        }
    }
}

/// A transaction on a connection: the connection's queries, then `commit`; dropped
/// uncommitted, it is rolled back.
pub struct Tx<'a> {
    conn: &'a mut Conn,
    open: bool,
}

impl Tx<'_> {
    pub fn commit(mut self) -> SqlResult<()> {
        self.open = false;
        self.conn.batch("COMMIT")
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.conn
    }
}

impl std::ops::DerefMut for Tx<'_> {
    fn deref_mut(&mut self) -> &mut Conn {
        self.conn
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.conn.batch("ROLLBACK");
        }
    }
}

/// `?N` parameters as `$N`, outside quoted text and identifiers.
pub fn numbered_for_postgres(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    for c in sql.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '?' => {
                out.push('$');
                continue;
            }
            None => {}
        }
        out.push(c);
    }
    out
}

/// The names of a statement's columns, once for all its rows.
fn sqlite_columns(statement: &rusqlite::Statement) -> Arc<[String]> {
    statement
        .column_names()
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// The names of a result's columns (those of its first row), once for all its rows.
fn postgres_columns(row: &postgres::Row) -> Arc<[String]> {
    row.columns()
        .iter()
        .map(|column| column.name().to_string())
        .collect()
}

fn sqlite_row(row: &rusqlite::Row, columns: &Arc<[String]>) -> SqlResult<Row> {
    let mut values = Vec::with_capacity(columns.len());
    for index in 0..columns.len() {
        values.push(match row.get_ref(index)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Int(n),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(text) => Value::Text(String::from_utf8_lossy(text).into_owned()),
            ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
        });
    }
    Ok(Row {
        columns: Arc::clone(columns),
        values,
    })
}

fn postgres_row(row: &postgres::Row, columns: &Arc<[String]>) -> SqlResult<Row> {
    let mut values = Vec::with_capacity(row.len());
    for (index, column) in row.columns().iter().enumerate() {
        let ty = column.type_();
        let value = if *ty == Type::INT8 {
            row.try_get::<_, Option<i64>>(index)?.map(Value::Int)
        } else if *ty == Type::INT4 {
            row.try_get::<_, Option<i32>>(index)?
                .map(|n| Value::Int(n.into()))
        } else if *ty == Type::INT2 {
            row.try_get::<_, Option<i16>>(index)?
                .map(|n| Value::Int(n.into()))
        } else if *ty == Type::BOOL {
            row.try_get::<_, Option<bool>>(index)?
                .map(|b| Value::Int(b.into()))
        } else if *ty == Type::FLOAT8 {
            row.try_get::<_, Option<f64>>(index)?.map(Value::Real)
        } else if *ty == Type::FLOAT4 {
            row.try_get::<_, Option<f32>>(index)?
                .map(|x| Value::Real(x.into()))
        } else if *ty == Type::BYTEA {
            row.try_get::<_, Option<Vec<u8>>>(index)?.map(Value::Blob)
        } else if [
            Type::TEXT,
            Type::VARCHAR,
            Type::BPCHAR,
            Type::NAME,
            Type::UNKNOWN,
        ]
        .contains(ty)
        {
            row.try_get::<_, Option<String>>(index)?.map(Value::Text)
        } else if *ty == Type::VOID {
            None
        } else {
            return Err(SqlError::Type(format!(
                "column {} has PostgreSQL type {ty}, which nimlab does not read",
                column.name()
            )));
        };
        values.push(value.unwrap_or(Value::Null));
    }
    Ok(Row {
        columns: Arc::clone(columns),
        values,
    })
}

fn pg_refs(values: &[Value]) -> Vec<&(dyn PgToSql + Sync)> {
    values.iter().map(|v| v as &(dyn PgToSql + Sync)).collect()
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(n) => ToSqlOutput::Borrowed(ValueRef::Integer(*n)),
            Value::Real(x) => ToSqlOutput::Borrowed(ValueRef::Real(*x)),
            Value::Text(text) => ToSqlOutput::Borrowed(ValueRef::Text(text.as_bytes())),
            Value::Blob(bytes) => ToSqlOutput::Borrowed(ValueRef::Blob(bytes)),
        })
    }
}

type BoxError = Box<dyn std::error::Error + Sync + Send>;

/// A value is written as the type PostgreSQL inferred for its place, when it fits.
impl PgToSql for Value {
    fn to_sql(&self, ty: &Type, out: &mut bytes::BytesMut) -> Result<IsNull, BoxError> {
        let unfit =
            || -> BoxError { format!("{self:?} cannot be sent as PostgreSQL's {ty}").into() };
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(n) => {
                if *ty == Type::INT8 {
                    n.to_sql(ty, out)
                } else if *ty == Type::INT4 {
                    i32::try_from(*n).map_err(|_| unfit())?.to_sql(ty, out)
                } else if *ty == Type::INT2 {
                    i16::try_from(*n).map_err(|_| unfit())?.to_sql(ty, out)
                } else if *ty == Type::BOOL {
                    (*n != 0).to_sql(ty, out)
                } else if *ty == Type::FLOAT8 {
                    (*n as f64).to_sql(ty, out)
                } else if *ty == Type::FLOAT4 {
                    (*n as f32).to_sql(ty, out)
                } else if *ty == Type::TEXT || *ty == Type::VARCHAR {
                    n.to_string().to_sql(ty, out)
                } else {
                    Err(unfit())
                }
            }
            Value::Real(x) => {
                if *ty == Type::FLOAT8 {
                    x.to_sql(ty, out)
                } else if *ty == Type::FLOAT4 {
                    (*x as f32).to_sql(ty, out)
                } else {
                    Err(unfit())
                }
            }
            Value::Text(text) => {
                if *ty == Type::BYTEA {
                    text.as_bytes().to_sql(ty, out)
                } else if [
                    Type::TEXT,
                    Type::VARCHAR,
                    Type::BPCHAR,
                    Type::NAME,
                    Type::UNKNOWN,
                ]
                .contains(ty)
                {
                    text.as_str().to_sql(ty, out)
                } else {
                    Err(unfit())
                }
            }
            Value::Blob(bytes) => {
                if *ty == Type::BYTEA {
                    bytes.as_slice().to_sql(ty, out)
                } else {
                    Err(unfit())
                }
            }
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_parameters_are_rewritten_outside_quotes_only() {
        assert_eq!(
            numbered_for_postgres("SELECT '?1', \"a?\" FROM t WHERE a = ?1 AND b = ?12"),
            "SELECT '?1', \"a?\" FROM t WHERE a = $1 AND b = $12"
        );
    }

    #[test]
    fn sqlite_rows_read_as_values() {
        let mut c = Conn::Sqlite(rusqlite::Connection::open_in_memory().unwrap());
        c.batch("CREATE TABLE t (a INTEGER, b TEXT, c BLOB, d REAL)")
            .unwrap();
        c.execute(
            "INSERT INTO t VALUES (?1, ?2, ?3, ?4)",
            params![7_i64, "x", b"\x00\x01".to_vec(), 0.5_f64],
        )
        .unwrap();
        let row: (i64, String, Vec<u8>, f64, bool) = c
            .query_row("SELECT a, b, c, d, a > 3 AS big FROM t", [], |r| {
                Ok((
                    r.get("a")?,
                    r.get("b")?,
                    r.get("c")?,
                    r.get("d")?,
                    r.get("big")?,
                ))
            })
            .unwrap();
        assert_eq!(row, (7, "x".into(), vec![0, 1], 0.5, true));
        let none = c
            .query_row("SELECT a FROM t WHERE a = ?1", [8], |r| {
                r.get::<_, i64>("a")
            })
            .optional()
            .unwrap();
        assert_eq!(none, None);
    }

    #[test]
    fn rows_are_read_by_column_name_whatever_the_order() {
        let mut c = Conn::Sqlite(rusqlite::Connection::open_in_memory().unwrap());
        c.batch("CREATE TABLE t (a INTEGER, b TEXT)").unwrap();
        c.execute("INSERT INTO t VALUES (1, 'one'), (2, 'two')", [])
            .unwrap();
        let rows: Vec<(i64, String)> = c
            .query("SELECT t.b, t.a FROM t ORDER BY a", [], |r| {
                Ok((r.get("a")?, r.get("b")?))
            })
            .unwrap();
        assert_eq!(rows, vec![(1, "one".into()), (2, "two".into())]);
        let row = c
            .query_row("SELECT COUNT(*) AS n, MAX(a) AS top FROM t", [], |r| {
                assert_eq!(r.columns(), ["n", "top"]);
                Ok((r.get::<_, i64>("top")?, r.get::<_, i64>("n")?))
            })
            .unwrap();
        assert_eq!(row, (2, 2));
    }

    #[test]
    fn a_column_the_result_lacks_is_an_error_that_names_it() {
        let mut c = Conn::Sqlite(rusqlite::Connection::open_in_memory().unwrap());
        let error = c
            .query_row("SELECT 1 AS one", [], |r| r.get::<_, i64>("two"))
            .unwrap_err();
        assert!(
            matches!(&error, SqlError::Type(m) if m == "a row has no column two"),
            "{error:?}"
        );
        // Names are matched exactly: PostgreSQL folds unquoted names to lower case.
        let error = c
            .query_row("SELECT 1 AS one", [], |r| r.get::<_, i64>("ONE"))
            .unwrap_err();
        assert!(matches!(error, SqlError::Type(_)), "{error:?}");
        // Two columns of one name (`u.id` and `s.id`) are not read as either.
        let error = c
            .query_row("SELECT 1 AS id, 2 AS id", [], |r| r.get::<_, i64>("id"))
            .unwrap_err();
        assert!(
            matches!(&error, SqlError::Type(m) if m == "a row has more than one column id"),
            "{error:?}"
        );
    }

    #[test]
    fn a_dropped_transaction_is_rolled_back() {
        let mut c = Conn::Sqlite(rusqlite::Connection::open_in_memory().unwrap());
        c.batch("CREATE TABLE t (a INTEGER)").unwrap();
        {
            let mut tx = c.immediate().unwrap();
            tx.execute("INSERT INTO t VALUES (1)", []).unwrap();
        }
        let n: i64 = c
            .query_row("SELECT COUNT(*) AS n FROM t", [], |r| r.get("n"))
            .unwrap();
        assert_eq!(n, 0);
    }
}
