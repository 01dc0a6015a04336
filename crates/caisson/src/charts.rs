//! `caisson chart`: a rule system's reference charts, listed one line each, printed as terminal
//! tables with every reconstructed value marked, and single Combat Chart readings explained.
//!
//! The [`Registry`] supplies the charts as plain tables ([`Chart`]); this module only lays them
//! out, so what is printed is what the registry's rules read.

use std::io::{self, Write};

use crate::Registry;

/// The width the tables and notes are fitted to (a wide row may still run past it).
pub const WIDTH: usize = 120;

/// One chart a rule system offers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartInfo {
    /// Name on the command line, e.g. `combat`.
    pub name: String,
    /// Printed title, e.g. `Combat Chart`.
    pub title: String,
    /// What it is for, in a few words.
    pub purpose: String,
    /// Rule sections, e.g. `GCACW 7.5`.
    pub rules: String,
    /// Kind of source of the chart as a whole: `official chart`, `rulebook section` or
    /// `reconstructed`.
    pub source: String,
}

/// A chart laid out as tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Chart {
    /// Title, e.g. `Combat Chart`.
    pub title: String,
    /// Rule sections.
    pub rules: String,
    /// Where the chart comes from, as its data file says.
    pub source: String,
    /// How to read it, one paragraph each.
    pub about: Vec<String>,
    /// The tables.
    pub blocks: Vec<Block>,
    /// What the chart's own codes mean: (code, meaning); an empty code for a line of its own.
    pub legend: Vec<(String, String)>,
    /// The character that marks a reconstructed value (`†`, or another one when the chart's own
    /// notation uses `†`).
    pub mark: char,
    /// Why each reconstructed value is what it is.
    pub footnotes: Vec<Footnote>,
}

/// The reason shared by one or more reconstructed values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Footnote {
    /// The values it covers, as the data names them ("clear costs 3 MP (rain 4)").
    pub items: Vec<String>,
    /// The reason.
    pub reason: String,
    /// Whether the values are marked in the tables; `false` for reconstructed values the
    /// registry could not place in a cell (they are still counted and listed).
    pub placed: bool,
}

/// One table of a chart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Block {
    /// A line above the table.
    pub caption: Option<String>,
    /// Headings spanning several columns, left to right: (heading, number of columns). Empty
    /// for none; otherwise the spans cover every column.
    pub groups: Vec<(String, usize)>,
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows, one cell per column.
    pub rows: Vec<Vec<Cell>>,
}

/// A column of a [`Block`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Column {
    /// Heading.
    pub label: String,
    /// Whether the cells are chart values (counted, and marked when reconstructed) rather than
    /// row labels or descriptions.
    pub value: bool,
    /// Whether the cells are right-aligned (numbers and codes).
    pub right: bool,
    /// Whether a vertical rule separates this column from the one before.
    pub rule_before: bool,
}

impl Column {
    /// A left-aligned column of row labels or descriptions.
    #[must_use]
    pub fn label(label: impl Into<String>) -> Column {
        Column { label: label.into(), value: false, right: false, rule_before: false }
    }

    /// A right-aligned column of values.
    #[must_use]
    pub fn value(label: impl Into<String>) -> Column {
        Column { label: label.into(), value: true, right: true, rule_before: false }
    }

    /// A left-aligned column of values written as words.
    #[must_use]
    pub fn words(label: impl Into<String>) -> Column {
        Column { label: label.into(), value: true, right: false, rule_before: false }
    }

    /// The same column with a vertical rule before it.
    #[must_use]
    pub fn ruled(self) -> Column {
        Column { rule_before: true, ..self }
    }
}

/// One cell of a [`Block`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    /// Text.
    pub text: String,
    /// Whether the value is reconstructed (printed with the chart's mark).
    pub reconstructed: bool,
}

impl Cell {
    /// A cell.
    #[must_use]
    pub fn new(text: impl Into<String>) -> Cell {
        Cell { text: text.into(), reconstructed: false }
    }

    /// A cell, marked if `reconstructed`.
    #[must_use]
    pub fn marked(text: impl Into<String>, reconstructed: bool) -> Cell {
        Cell { text: text.into(), reconstructed }
    }
}

impl Chart {
    /// Number of values in the chart: the non-empty cells of value columns, plus reconstructed
    /// values that could not be placed in a cell.
    #[must_use]
    pub fn values(&self) -> usize {
        self.count(|c| !c.text.is_empty()) + self.unplaced()
    }

    /// Number of reconstructed values: the marked cells of value columns, plus those that could
    /// not be placed in a cell.
    #[must_use]
    pub fn reconstructed(&self) -> usize {
        self.count(|c| c.reconstructed) + self.unplaced()
    }

    fn unplaced(&self) -> usize {
        self.footnotes.iter().filter(|f| !f.placed).map(|f| f.items.len()).sum()
    }

    fn count(&self, pred: impl Fn(&Cell) -> bool) -> usize {
        self.blocks
            .iter()
            .flat_map(|b| b.rows.iter().flat_map(|row| row.iter().zip(&b.columns)))
            .filter(|(cell, col)| col.value && pred(cell))
            .count()
    }
}

/// A reading of the Combat Chart: the row and the two Combat values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CombatQuery {
    /// The attacker's modified die roll minus the defender's.
    pub differential: i32,
    /// The attacker's combined Combat value, in half points (at least 1).
    pub attacker_cv: u16,
    /// The defender's combined Combat value before entrenchment, in half points (at least 1).
    pub defender_cv: u16,
}

/// What the Combat Chart gives for a [`CombatQuery`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CombatReading {
    /// Chart title.
    pub title: String,
    /// Rule section of the chart.
    pub rules: String,
    /// Where the chart comes from.
    pub source: String,
    /// The differential asked for.
    pub differential: i32,
    /// The row read, as labelled ("+4").
    pub row: String,
    /// Why another row than the differential was read, if it was.
    pub row_note: Option<String>,
    /// The defender's result (applied first).
    pub defender: CombatSide,
    /// The attacker's result.
    pub attacker: CombatSide,
    /// Reminders printed after the results.
    pub notes: Vec<String>,
}

/// One side's cell of a [`CombatReading`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CombatSide {
    /// The Combat value read, as printed ("7", "3½").
    pub cv: String,
    /// How the column is chosen, e.g. "before entrenchment"; empty for nothing to say.
    pub cv_note: String,
    /// The column's label ("7–11").
    pub column: String,
    /// The result as the chart prints it ("1DR").
    pub result: String,
    /// Each part of the result and what it means: ("1", "…"), ("D", "…").
    pub meanings: Vec<(String, String)>,
    /// Why the cell is reconstructed, if it is.
    pub reconstructed: Option<String>,
}

/// A line of `caisson chart`: a chart and how much of it is reconstructed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListRow {
    /// The chart.
    pub info: ChartInfo,
    /// Values in it.
    pub values: usize,
    /// Reconstructed values in it.
    pub reconstructed: usize,
}

/// Every chart of a registry, with its counts of values and reconstructed values.
///
/// # Errors
/// A chart cannot be read.
pub fn list(registry: &dyn Registry) -> Result<Vec<ListRow>, String> {
    registry
        .charts()?
        .into_iter()
        .map(|info| {
            let chart = registry.chart(&info.name)?;
            Ok(ListRow { values: chart.values(), reconstructed: chart.reconstructed(), info })
        })
        .collect()
}

/// Writes the list of charts, one line each: name, what it is for, rule sections, source.
///
/// # Errors
/// Output failed.
pub fn write_list(system: &str, rows: &[ListRow], out: &mut dyn Write) -> io::Result<()> {
    if rows.is_empty() {
        writeln!(out, "The {system} rules have no charts.")?;
        return out.flush();
    }
    let block = Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![
            Column::label("name"),
            Column::label("for"),
            Column::label("rules"),
            Column::label("source"),
            Column::label("reconstructed"),
        ],
        rows: rows
            .iter()
            .map(|r| {
                let recon = match r.reconstructed {
                    0 => "none".to_string(),
                    n if n == r.values => format!("all {n} values"),
                    n => format!("{n} of {} values", r.values),
                };
                vec![
                    Cell::new(&r.info.name),
                    Cell::new(&r.info.purpose),
                    Cell::new(&r.info.rules),
                    Cell::new(&r.info.source),
                    Cell::new(recon),
                ]
            })
            .collect(),
    };
    write_block(&block, '†', out)?;
    writeln!(out)?;
    let example = rows.first().map_or("<name>", |r| r.info.name.as_str());
    for line in wrap(
        &format!(
            "Print one with `caisson chart {system} <name>` (e.g. `caisson chart {system} {example}`); \
             a reconstructed value is marked there and its reason given below the table."
        ),
        WIDTH,
        "",
        "",
    ) {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// Writes one chart: title, source, how to read it, its tables, the meaning of its codes, and
/// the reason for every reconstructed value.
///
/// # Errors
/// Output failed.
pub fn write_chart(chart: &Chart, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{} ({})", chart.title, chart.rules)?;
    for line in wrap(&chart.source, WIDTH, "Source: ", "        ") {
        writeln!(out, "{line}")?;
    }
    for paragraph in &chart.about {
        writeln!(out)?;
        for line in wrap(paragraph, WIDTH, "", "") {
            writeln!(out, "{line}")?;
        }
    }
    for block in &chart.blocks {
        writeln!(out)?;
        write_block(block, chart.mark, out)?;
    }
    if !chart.legend.is_empty() {
        writeln!(out)?;
        let w = chart.legend.iter().map(|(code, _)| width(code)).max().unwrap_or(0);
        for (code, meaning) in &chart.legend {
            let (first, rest) = if code.is_empty() {
                (String::new(), String::new())
            } else {
                (format!("  {code:<w$}  "), " ".repeat(w + 4))
            };
            for line in wrap(meaning, WIDTH, &first, &rest) {
                writeln!(out, "{line}")?;
            }
        }
    }
    writeln!(out)?;
    let n = chart.reconstructed();
    if n == 0 {
        writeln!(out, "No value of this chart is reconstructed.")?;
    } else {
        let verb = if n == 1 { "is" } else { "are" };
        writeln!(
            out,
            "{} {n} of {} values {verb} reconstructed (not from an official source):",
            chart.mark,
            chart.values()
        )?;
        for f in &chart.footnotes {
            let mark = if f.placed { chart.mark.to_string() } else { "(not marked above)".to_string() };
            let reason = f.reason.trim();
            let reason = reason.strip_prefix("reconstructed: ").unwrap_or(reason);
            let text = format!("{}: {reason}", f.items.join("; "));
            for line in wrap(&text, WIDTH, &format!("  {mark} "), "      ") {
                writeln!(out, "{line}")?;
            }
        }
    }
    out.flush()
}

/// Writes one Combat Chart reading: the row, and each side's column, result and the meaning of
/// every part of it.
///
/// # Errors
/// Output failed.
pub fn write_combat_reading(r: &CombatReading, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{} ({}), differential {}: row {}", r.title, r.rules, signed(r.differential), r.row)?;
    if let Some(note) = &r.row_note {
        for line in wrap(note, WIDTH, "  ", "  ") {
            writeln!(out, "{line}")?;
        }
    }
    for (role, side) in [("Defender", &r.defender), ("Attacker", &r.attacker)] {
        writeln!(out)?;
        let note = if side.cv_note.is_empty() { String::new() } else { format!(" ({})", side.cv_note) };
        writeln!(out, "{role}: Combat value {}{note}, column {} → {}", side.cv, side.column, side.result)?;
        let width = side.meanings.iter().map(|(code, _)| code.chars().count()).max().unwrap_or(1);
        for (code, meaning) in &side.meanings {
            let first = format!("  {code:<width$}  ");
            let rest = " ".repeat(first.chars().count());
            for line in wrap(meaning, WIDTH, &first, &rest) {
                writeln!(out, "{line}")?;
            }
        }
        if let Some(reason) = &side.reconstructed {
            for line in wrap(&format!("† This cell is reconstructed — {reason}"), WIDTH, "  ", "    ") {
                writeln!(out, "{line}")?;
            }
        }
    }
    writeln!(out)?;
    for note in &r.notes {
        for line in wrap(note, WIDTH, "", "") {
            writeln!(out, "{line}")?;
        }
    }
    for line in wrap(&r.source, WIDTH, "Source: ", "        ") {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// A whole number with its sign, as the charts print differentials and modifiers: "+4", "0",
/// "-2".
#[must_use]
pub fn signed(n: i32) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

fn width(s: &str) -> usize {
    s.chars().count()
}

/// Lays out a table: group headings, column headings, a rule, then the rows. Reconstructed
/// values carry `mark`. A left-aligned last column too long for [`WIDTH`] is wrapped.
fn write_block(block: &Block, mark: char, out: &mut dyn Write) -> io::Result<()> {
    if let Some(caption) = &block.caption {
        for line in wrap(caption, WIDTH, "", "") {
            writeln!(out, "{line}")?;
        }
    }
    let n = block.columns.len();
    if n == 0 {
        return Ok(());
    }
    // A column with a marked cell keeps room for the mark in every cell, so values stay aligned.
    let marked: Vec<bool> =
        (0..n).map(|i| block.rows.iter().any(|row| row.get(i).is_some_and(|c| c.reconstructed))).collect();
    let mut widths: Vec<usize> = block.columns.iter().map(|c| width(&c.label)).collect();
    for row in &block.rows {
        for (i, cell) in row.iter().enumerate().take(n) {
            widths[i] = widths[i].max(width(&cell.text) + usize::from(marked[i]));
        }
    }
    let sep = |i: usize| if block.columns[i].rule_before { " │ " } else { "  " };
    // Widen the columns of a group whose heading is longer than they are, evenly.
    let mut start = 0;
    for (label, span) in &block.groups {
        let end = (start + span).min(n);
        if end > start {
            let inner: usize =
                (start..end).map(|i| widths[i]).sum::<usize>() + (start + 1..end).map(|i| width(sep(i))).sum::<usize>();
            let extra = width(label).saturating_sub(inner);
            let count = end - start;
            for (k, i) in (start..end).enumerate() {
                widths[i] += extra / count + usize::from(k < extra % count);
            }
        }
        start = end;
    }
    // Wrap a long left-aligned last column.
    let prefix: usize = (0..n - 1).map(|i| widths[i] + width(sep(i + 1))).sum();
    let last = n - 1;
    let wrap_last = !block.columns[last].right && prefix + widths[last] > WIDTH && WIDTH > prefix + 30;
    if wrap_last {
        widths[last] = WIDTH - prefix;
    }

    let mut lines: Vec<String> = Vec::new();
    if !block.groups.is_empty() {
        let mut line = String::new();
        let mut start = 0;
        for (k, (label, span)) in block.groups.iter().enumerate() {
            let end = (start + span).min(n);
            if end <= start {
                continue;
            }
            let inner: usize =
                (start..end).map(|i| widths[i]).sum::<usize>() + (start + 1..end).map(|i| width(sep(i))).sum::<usize>();
            if k > 0 {
                line.push_str(sep(start));
            }
            line.push_str(&format!("{label:^inner$}"));
            start = end;
        }
        lines.push(line);
    }
    let heading: Vec<String> = block
        .columns
        .iter()
        .zip(&widths)
        .map(|(c, w)| if c.right { format!("{:>w$}", c.label) } else { format!("{:<w$}", c.label) })
        .collect();
    lines.push(join(&heading, sep));
    let rules: Vec<String> = widths.iter().map(|w| "─".repeat(*w)).collect();
    lines.push(join(&rules, |i| if block.columns[i].rule_before { "─┼─" } else { "  " }));
    for row in &block.rows {
        let texts: Vec<String> = (0..n)
            .map(|i| {
                let cell = row.get(i).cloned().unwrap_or_default();
                let m = if cell.reconstructed { mark.to_string() } else { String::new() };
                let w = widths[i];
                match (block.columns[i].right, marked[i]) {
                    (true, true) => format!("{:>w$}{}", cell.text, if m.is_empty() { " " } else { &m }, w = w - 1),
                    (true, false) => format!("{:>w$}", cell.text),
                    (false, _) => format!("{:<w$}", format!("{}{m}", cell.text)),
                }
            })
            .collect();
        if wrap_last {
            let head = join(&texts[..last], sep);
            let head = format!("{head}{}", sep(last));
            let pad = " ".repeat(width(&head));
            let text = texts[last].trim_end();
            for (k, line) in wrap(text, widths[last], "", "").into_iter().enumerate() {
                lines.push(if k == 0 { format!("{head}{line}") } else { format!("{pad}{line}") });
            }
        } else {
            lines.push(join(&texts, sep));
        }
    }
    for line in lines {
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

fn join<'a>(cells: &[String], sep: impl Fn(usize) -> &'a str) -> String {
    let mut line = String::new();
    for (i, cell) in cells.iter().enumerate() {
        if i > 0 {
            line.push_str(sep(i));
        }
        line.push_str(cell);
    }
    line
}

/// Splits `text` into lines of at most `width` characters at spaces (a longer word gets a line
/// of its own), the first line starting with `first`, the others with `rest`.
#[must_use]
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && self::width(&line) + 1 + self::width(word) > width {
            lines.push(std::mem::replace(&mut line, rest.to_string()));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    if !empty || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}
