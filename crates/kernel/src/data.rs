//! Loading data files (charts, counters, scenarios) with errors that name file, line and field.
//!
//! Rules crates describe their files as serde types, read them with [`read`] (or from text built
//! into the program) and parse them with [`parse_toml`] or [`parse_csv`]; [`DataDir`] finds a file in the repository's `data/`, as built into
//! the program by `build.rs` or in a folder on disk. Semantic checks that come after parsing report through [`DataError::at`].

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

/// A data file that could not be read, parsed or validated. The message always names the file,
/// and the line when one is known.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file could not be read.
    #[error("{file}: cannot read: {source}")]
    Io {
        /// File path as given.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file did not parse, or a value had the wrong type or an unknown key.
    #[error("{file}:{line}:{column}: {message}")]
    Parse {
        /// File path as given.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong, with the field's path where the parser knows it.
        message: String,
    },
    /// The file parsed but a value breaks a rule of the data (an unknown id, an off-map hex...).
    #[error("{file}{}: {message}", line.map(|l| format!(":{l}")).unwrap_or_default())]
    Invalid {
        /// File path as given.
        file: String,
        /// 1-based line, when known.
        line: Option<usize>,
        /// What is wrong, naming the field.
        message: String,
    },
}

impl DataError {
    /// A validation error at a byte offset of `text` (use `toml::Spanned` to keep offsets).
    #[must_use]
    pub fn at(file: &str, text: &str, offset: usize, message: impl Into<String>) -> DataError {
        DataError::Invalid { file: file.to_string(), line: Some(line_of(text, offset)), message: message.into() }
    }

    /// A validation error with no line.
    #[must_use]
    pub fn invalid(file: &str, message: impl Into<String>) -> DataError {
        DataError::Invalid { file: file.to_string(), line: None, message: message.into() }
    }
}

/// The 1-based line of a byte offset.
#[must_use]
pub fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end].iter().filter(|&&b| b == b'\n').count() + 1
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let end = offset.min(text.len());
    let line_start = text.as_bytes()[..end].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    (line_of(text, end), end - line_start + 1)
}

/// Reads a file to a string.
///
/// # Errors
/// The file cannot be read.
pub fn read(path: &Path) -> Result<String, DataError> {
    std::fs::read_to_string(path).map_err(|source| DataError::Io { file: path.display().to_string(), source })
}

/// Parses TOML text into `T`.
///
/// # Errors
/// Syntax errors, type errors and unknown keys, with line and column.
pub fn parse_toml<T: DeserializeOwned>(text: &str, file: &str) -> Result<T, DataError> {
    toml::from_str(text).map_err(|e| {
        let (line, column) = e.span().map_or((1, 1), |s| line_col(text, s.start));
        DataError::Parse { file: file.to_string(), line, column, message: e.message().trim().to_string() }
    })
}

/// Parses CSV text with a header row into records of `T`, each with its 1-based line.
///
/// # Errors
/// A malformed row or a field of the wrong type, naming the line and the column's header.
pub fn parse_csv<T: DeserializeOwned>(text: &str, file: &str) -> Result<Vec<(usize, T)>, DataError> {
    let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| DataError::Parse { file: file.to_string(), line: 1, column: 1, message: e.to_string() })?
        .clone();
    let mut out = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| csv_error(file, &e))?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let row: T = record.deserialize(Some(&headers)).map_err(|e| {
            let field = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => err
                    .field()
                    .and_then(|f| headers.get(f as usize))
                    .map(|h| format!("field `{h}`: "))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            DataError::Invalid { file: file.to_string(), line: Some(line), message: format!("{field}{e}") }
        })?;
        out.push((line, row));
    }
    Ok(out)
}

fn csv_error(file: &str, e: &csv::Error) -> DataError {
    let line = e.position().map_or(0, |p| p.line() as usize);
    DataError::Invalid { file: file.to_string(), line: Some(line), message: e.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Row {
        name: String,
        value: u8,
    }

    #[test]
    fn toml_errors_name_file_line_and_key() {
        let err = parse_toml::<Row>("name = \"a\"\nvalue = 300\n", "x.toml").expect_err("out of range");
        let msg = err.to_string();
        assert!(msg.starts_with("x.toml:2:"), "{msg}");
        let err = parse_toml::<Row>("name = \"a\"\nvalue = 1\nextra = 2\n", "x.toml").expect_err("unknown key");
        assert!(err.to_string().starts_with("x.toml:3:") && err.to_string().contains("extra"), "{err}");
    }

    #[test]
    fn csv_errors_name_line_and_column() {
        let err = parse_csv::<Row>("name,value\na,1\nb,x\n", "c.csv").expect_err("bad number");
        let msg = err.to_string();
        assert!(msg.starts_with("c.csv:3:") && msg.contains("value"), "{msg}");
        let ok = parse_csv::<Row>("name,value\na,1\n", "c.csv").expect("parses");
        assert_eq!(ok[0].0, 2);
    }
}

/// The data files built into the program (generated by `build.rs` from the repository's `data/`).
mod builtin {
    include!(concat!(env!("OUT_DIR"), "/builtin_data.rs"));
}

/// A file or folder of data laid out like the repository's `data/`: the copy built into the
/// program, or a folder on disk (an edited copy; the tests of broken data files use one).
#[derive(Clone, Debug)]
pub struct DataDir {
    /// The folder on disk, or `None` for the built-in files.
    root: Option<PathBuf>,
    /// Path under the root, `/`-separated.
    path: String,
}

impl DataDir {
    /// The data built into the program.
    #[must_use]
    pub fn builtin() -> DataDir {
        DataDir { root: None, path: String::new() }
    }

    /// A folder on disk.
    #[must_use]
    pub fn on_disk(root: &Path) -> DataDir {
        DataDir { root: Some(root.to_path_buf()), path: String::new() }
    }

    /// A file or folder inside this one.
    #[must_use]
    pub fn join(&self, name: &str) -> DataDir {
        let path = if self.path.is_empty() { name.to_string() } else { format!("{}/{name}", self.path) };
        DataDir { root: self.root.clone(), path }
    }

    /// The name used in error messages.
    #[must_use]
    pub fn display(&self) -> String {
        match &self.root {
            Some(root) => root.join(&self.path).display().to_string(),
            None => format!("data/{} (built in)", self.path),
        }
    }

    /// The text of this file.
    ///
    /// # Errors
    /// It cannot be read, or no such file is built in.
    pub fn read(&self) -> Result<String, DataError> {
        match &self.root {
            Some(root) => read(&root.join(&self.path)),
            None => builtin::BUILTIN_FILES
                .iter()
                .find(|(p, _)| *p == self.path)
                .map(|(_, text)| (*text).to_string())
                .ok_or_else(|| DataError::invalid(&self.display(), "no such data file is built into this program")),
        }
    }
}
