//! Reading input one line at a time with a bound on the line's length, so a peer that never sends
//! a newline cannot make the program hold an unbounded buffer.

use std::io::{self, BufRead};

/// The longest engine request line, in bytes (without its newline): 1 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, without its `\n` or `\r\n`.
    Text(String),
    /// A line longer than the bound; it was read to its end and dropped. Holds its length.
    TooLong(usize),
    /// A line that is not UTF-8; it was dropped.
    NotUtf8,
    /// End of input.
    Eof,
}

/// Reads one line of at most `max` bytes. A longer line is consumed to its newline without being
/// kept, and reported as [`Line::TooLong`]. A last line without a newline still counts.
///
/// # Errors
/// The reader failed (interrupted reads are retried).
pub fn read_line(input: &mut dyn BufRead, max: usize) -> io::Result<Line> {
    let mut kept: Vec<u8> = Vec::new();
    let mut total = 0usize;
    let mut seen_any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !seen_any {
                return Ok(Line::Eof);
            }
            break;
        }
        seen_any = true;
        let (chunk, newline) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        total = total.saturating_add(chunk.len());
        if total <= max.saturating_add(1) {
            // Keep one byte past the bound so a `\r` before the newline does not count.
            kept.extend_from_slice(chunk);
        }
        let used = chunk.len() + usize::from(newline);
        input.consume(used);
        if newline {
            break;
        }
    }
    if kept.last() == Some(&b'\r') && total <= max.saturating_add(1) {
        kept.pop();
        total -= 1;
    }
    if total > max {
        return Ok(Line::TooLong(total));
    }
    match String::from_utf8(kept) {
        Ok(s) => Ok(Line::Text(s)),
        Err(_) => Ok(Line::NotUtf8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8], max: usize) -> Vec<Line> {
        let mut r = io::BufReader::with_capacity(4, text);
        let mut out = Vec::new();
        loop {
            let l = read_line(&mut r, max).expect("read");
            if l == Line::Eof {
                return out;
            }
            out.push(l);
        }
    }

    #[test]
    fn lines_with_and_without_final_newline_and_crlf() {
        assert_eq!(
            all(b"ab\r\n\ncdef\nlast", 10),
            vec![
                Line::Text("ab".into()),
                Line::Text(String::new()),
                Line::Text("cdef".into()),
                Line::Text("last".into())
            ]
        );
        assert_eq!(all(b"", 10), vec![]);
    }

    #[test]
    fn a_line_over_the_bound_is_dropped_and_the_next_is_read() {
        assert_eq!(
            all(b"0123456789\n01234567890\nok\n0123456789\r\n", 10),
            vec![
                Line::Text("0123456789".into()),
                Line::TooLong(11),
                Line::Text("ok".into()),
                Line::Text("0123456789".into())
            ]
        );
        assert_eq!(all(&[b'x'; 100], 10), vec![Line::TooLong(100)]);
    }

    #[test]
    fn invalid_utf8_is_reported() {
        assert_eq!(all(b"\xff\xfe\nok\n", 10), vec![Line::NotUtf8, Line::Text("ok".into())]);
    }
}
