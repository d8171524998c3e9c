//! Array bodies: inline values, list items, tabular rows and keyed-table entries, with their
//! count and width checks.
//!
//! Rows and entries are flat, so they are read in one loop; list items may hold containers and
//! are read one per step of the parser's frame stack.

use serde_json::{Map, Value};

use super::error::{DecodeError, ErrorKind};
use super::fields::Fields;
use super::header::{self, Header};
use super::lines::Line;
use super::parser::{Declared, Frame, ListFrame, Opened, Parser, Step};
use super::primitive;
use super::scan::{find_unquoted, is_list_item, skip_spaces, split_cells, trim};

impl<'a> Parser<'a> {
    /// Starts the array whose `header` is on `line`; rows, items or entries sit at
    /// `child_depth`. A keyed header yields an object, every other header an array. Only a list
    /// needs a frame: everything else is read here.
    pub(super) fn open_array(
        &mut self,
        line: &Line<'a>,
        header: &Header,
        child_depth: usize,
    ) -> Result<Opened<'a>, DecodeError> {
        let rest = trim(line.text, header.rest_at..line.text.len());
        let declared = Declared {
            line: *line,
            length: header.length,
            bracket_at: header.bracket_at,
        };
        Ok(Opened::Value(match &header.fields {
            Some(_) if !rest.is_empty() => {
                return Err(line.error(rest.start, ErrorKind::InlineAfterTabular));
            }
            Some(fields) if header.keyed => Value::Object(self.read_entries(
                &declared,
                header.delimiter,
                fields,
                child_depth,
            )?),
            Some(fields) => {
                Value::Array(self.read_rows(&declared, header.delimiter, fields, child_depth)?)
            }
            None if !rest.is_empty() => Value::Array(self.read_inline(line, header)?),
            None => {
                let list = ListFrame {
                    items: Vec::new(),
                    depth: child_depth,
                    declared,
                    count: 0,
                    first_extra: None,
                };
                return Ok(Opened::Frame(Frame::List(list)));
            }
        }))
    }

    /// `key[N]: a,b,c` — values on the header line.
    fn read_inline(&mut self, line: &Line<'a>, header: &Header) -> Result<Vec<Value>, DecodeError> {
        let spans = split_cells(line.text, header.rest_at, header.delimiter);
        if self.strict && spans.len() != header.length {
            let at = spans
                .get(header.length)
                .map_or(header.bracket_at, |span| span.start);
            let kind = ErrorKind::CountMismatch {
                what: "values",
                expected: header.length,
                found: spans.len(),
            };
            return Err(line.error(at, kind));
        }
        spans
            .into_iter()
            .map(|span| primitive::parse_token(line.text, span).map_err(|f| line.fault(f)))
            .collect()
    }

    /// Reads the next `- ` item of a list.
    pub(super) fn step_list(&mut self, list: &mut ListFrame<'a>) -> Result<Step<'a>, DecodeError> {
        let Some(item) = self.peek_at(list.depth)? else {
            return Ok(Step::Done);
        };
        if !is_list_item(item.text) {
            return Err(item.error(0, ErrorKind::ExpectedListItem));
        }
        self.take(&item)?;
        if list.count == 0 {
            self.open_arrays += 1;
        }
        if list.count == list.declared.length {
            list.first_extra.get_or_insert(item);
        }
        list.count += 1;
        self.read_list_item(&item, list.depth, &mut list.items)
    }

    /// One `- …` item at `depth`: `{}` for a bare hyphen, `[]`, an inner array whose items are
    /// one level below the hyphen, an object whose first field is on the hyphen line (its
    /// children two levels below, its other fields one level below), or a primitive.
    fn read_list_item(
        &mut self,
        item: &Line<'a>,
        depth: usize,
        items: &mut Vec<Value>,
    ) -> Result<Step<'a>, DecodeError> {
        let text = item.text;
        let start = skip_spaces(text, 1);
        let content = trim(text, start..text.len());
        let value = match text.get(content.clone()).unwrap_or("") {
            "" => Value::Object(Map::new()),
            "[]" => Value::Array(Vec::new()),
            c if c.starts_with('[') => {
                let header =
                    header::parse_header(text, start, self.strict).map_err(|f| item.fault(f))?;
                if header.fields.is_some() {
                    return Err(item.error(start, ErrorKind::KeylessTableItem));
                }
                match self.open_array(item, &header, depth + 1)? {
                    Opened::Value(value) => value,
                    Opened::Frame(frame) => return Ok(Step::Push(frame)),
                }
            }
            _ if find_unquoted(text, start, |b| b == b':').is_some() => {
                let mut object = Map::new();
                let (field, opened) = self.read_field(item, start, depth + 2)?;
                let pending = match opened {
                    Opened::Value(value) => {
                        self.insert(&mut object, field, value)?;
                        None
                    }
                    Opened::Frame(child) => Some((field, child)),
                };
                return Ok(match pending {
                    None => Step::Push(Frame::Object {
                        object,
                        depth: depth + 1,
                        pending: None,
                    }),
                    Some((field, child)) => Step::PushTwo(
                        Frame::Object {
                            object,
                            depth: depth + 1,
                            pending: Some(field),
                        },
                        child,
                    ),
                });
            }
            _ => primitive::parse_token(text, content).map_err(|f| item.fault(f))?,
        };
        items.push(value);
        Ok(Step::Continue)
    }

    /// `key[N]{fields}:` followed by rows at `row_depth`. A line at row depth whose first
    /// unquoted colon comes before its first unquoted delimiter is a key-value line, which ends
    /// the rows.
    fn read_rows(
        &mut self,
        declared: &Declared<'a>,
        delimiter: u8,
        fields: &Fields,
        row_depth: usize,
    ) -> Result<Vec<Value>, DecodeError> {
        let mut rows = Vec::new();
        let mut first_extra = None;
        while let Some(row) = self.peek_at(row_depth)? {
            let first = find_unquoted(row.text, 0, |b| b == b':' || b == delimiter);
            if first.is_some_and(|i| row.text.as_bytes().get(i) == Some(&b':')) {
                break;
            }
            self.take(&row)?;
            if rows.is_empty() {
                self.open_arrays += 1;
            }
            if rows.len() == declared.length {
                first_extra.get_or_insert(row);
            }
            let cells = self.read_cells(&row, 0, delimiter, fields.width())?;
            rows.push(Value::Object(fields.assemble(cells)));
        }
        if !rows.is_empty() {
            self.open_arrays = self.open_arrays.saturating_sub(1);
        }
        self.check_count("rows", declared, rows.len(), first_extra)?;
        Ok(rows)
    }

    /// `key[N:]{fields}:` followed by `entrykey: cells` rows at `entry_depth`.
    fn read_entries(
        &mut self,
        declared: &Declared<'a>,
        delimiter: u8,
        fields: &Fields,
        entry_depth: usize,
    ) -> Result<Map<String, Value>, DecodeError> {
        let mut object = Map::new();
        let mut count = 0;
        let mut first_extra = None;
        while let Some(entry) = self.peek_at(entry_depth)? {
            self.take(&entry)?;
            if count == 0 {
                self.open_arrays += 1;
            }
            if count == declared.length {
                first_extra.get_or_insert(entry);
            }
            count += 1;
            let (key, cells_at) =
                header::parse_entry_key(entry.text).map_err(|f| entry.fault(f))?;
            if trim(entry.text, cells_at..entry.text.len()).is_empty() {
                return Err(entry.error(cells_at, ErrorKind::MissingCells));
            }
            let cells = self.read_cells(&entry, cells_at, delimiter, fields.width())?;
            let value = Value::Object(fields.assemble(cells));
            self.insert(&mut object, Parser::entry_field(key, &entry), value)?;
        }
        if count > 0 {
            self.open_arrays = self.open_arrays.saturating_sub(1);
        }
        self.check_count("entries", declared, count, first_extra)?;
        Ok(object)
    }

    /// The cells of `line` from `from`, which must number `width` (in both modes: a row of the
    /// wrong width cannot be assigned to the fields).
    fn read_cells(
        &self,
        line: &Line<'a>,
        from: usize,
        delimiter: u8,
        width: usize,
    ) -> Result<Vec<Value>, DecodeError> {
        let spans = split_cells(line.text, from, delimiter);
        if spans.len() != width {
            let at = spans.get(width).map_or(from, |span| span.start);
            return Err(line.error(
                at,
                ErrorKind::WidthMismatch {
                    expected: width,
                    found: spans.len(),
                },
            ));
        }
        spans
            .into_iter()
            .map(|span| primitive::parse_token(line.text, span).map_err(|f| line.fault(f)))
            .collect()
    }

    /// Strict mode: `found` must equal the declared length. Too many points at the first extra
    /// item, too few at the header's bracket.
    pub(super) fn check_count(
        &self,
        what: &'static str,
        declared: &Declared<'a>,
        found: usize,
        first_extra: Option<Line<'a>>,
    ) -> Result<(), DecodeError> {
        if !self.strict || found == declared.length {
            return Ok(());
        }
        let kind = ErrorKind::CountMismatch {
            what,
            expected: declared.length,
            found,
        };
        Err(match first_extra {
            Some(extra) => extra.error(0, kind),
            None => declared.line.error(declared.bracket_at, kind),
        })
    }
}
