//! The structural parser: root form, objects and their fields. Array bodies (lists, tables,
//! keyed tables, inline values) are in `arrays.rs`.
//!
//! Open containers live on an explicit stack of [`Frame`]s rather than the call stack, so no
//! input can overflow the stack; the line scanner's [`MAX_DEPTH`](super::MAX_DEPTH) bounds the
//! frame stack and the nesting of the resulting value.

use serde_json::{Map, Value};

use super::DecodeOptions;
use super::error::{DecodeError, ErrorKind};
use super::header::{self, KeyLine};
use super::lines::{Line, Lines};
use super::primitive;
use super::scan::{has_unquoted_colon, is_list_item, trim};

/// Decoding state over one document.
pub(super) struct Parser<'a> {
    lines: Lines<'a>,
    pub(super) strict: bool,
    /// Arrays whose first item has been read and whose last has not. A blank line before any
    /// line read while this is non-zero lies inside an array, which strict mode rejects; a
    /// blank line between a header and its first item, or after an array, is allowed.
    pub(super) open_arrays: usize,
}

/// A container whose content is still being read.
pub(super) enum Frame<'a> {
    /// An object whose fields are the lines at `depth`. While a child frame is open above it,
    /// `pending` is the field that child's value belongs to.
    Object {
        object: Map<String, Value>,
        depth: usize,
        pending: Option<Field<'a>>,
    },
    /// A list array whose `- ` items are the lines at `depth`.
    List(ListFrame<'a>),
}

/// A list array being read.
pub(super) struct ListFrame<'a> {
    pub(super) items: Vec<Value>,
    pub(super) depth: usize,
    pub(super) declared: Declared<'a>,
    /// Items read so far (values of open items are not in `items` yet).
    pub(super) count: usize,
    /// The first item beyond the declared length, where a count error points.
    pub(super) first_extra: Option<Line<'a>>,
}

/// A header's declared length and where to report a count mismatch.
#[derive(Clone, Copy)]
pub(super) struct Declared<'a> {
    pub(super) line: Line<'a>,
    pub(super) length: usize,
    pub(super) bracket_at: usize,
}

/// A field's key and where it was written (for duplicate-key errors).
pub(super) struct Field<'a> {
    key: String,
    line: Line<'a>,
    key_at: usize,
}

/// What reading a field or array header produced.
pub(super) enum Opened<'a> {
    /// A complete value.
    Value(Value),
    /// A container whose content is on the following lines.
    Frame(Frame<'a>),
}

/// The outcome of reading one line for the frame on top of the stack.
pub(super) enum Step<'a> {
    /// The frame stays on top.
    Continue,
    /// A child container goes on top.
    Push(Frame<'a>),
    /// A list-item object goes on top, then the container its first field opened.
    PushTwo(Frame<'a>, Frame<'a>),
    /// The frame's block has ended.
    Done,
}

impl<'a> Parser<'a> {
    pub(super) fn new(input: &'a str, options: &DecodeOptions) -> Self {
        Parser {
            lines: Lines::new(input, options.indent, options.strict),
            strict: options.strict,
            open_arrays: 0,
        }
    }

    /// Decodes the whole document according to its root form.
    pub(super) fn parse_document(&mut self) -> Result<Value, DecodeError> {
        let Some(first) = self.lines.peek()? else {
            return Ok(Value::Object(Map::new()));
        };
        if first.depth > 0 {
            return Err(first.error(0, ErrorKind::UnexpectedIndent));
        }
        let text = first.text;
        if text.trim_end_matches(' ') == "[]" {
            self.take(&first)?;
            return self.root_done(Value::Array(Vec::new()));
        }
        if text.starts_with('[') && has_unquoted_colon(text) {
            self.take(&first)?;
            let header = header::parse_header(text, 0, self.strict).map_err(|f| first.fault(f))?;
            let value = match self.open_array(&first, &header, 1)? {
                Opened::Value(value) => value,
                Opened::Frame(frame) => self.run(frame)?,
            };
            return self.root_done(value);
        }
        if !has_unquoted_colon(text) {
            // A lone primitive; a second line would make this an object whose first line lacks
            // its colon.
            self.take(&first)?;
            let value = primitive::parse_token(text, trim(text, 0..text.len()))
                .map_err(|f| first.fault(f))?;
            if self.lines.peek()?.is_some() {
                return Err(first.error(text.len(), ErrorKind::MissingColon));
            }
            return Ok(value);
        }
        self.run(Frame::Object {
            object: Map::new(),
            depth: 0,
            pending: None,
        })
    }

    /// Refuses anything after a root array, keyed root or `[]`.
    fn root_done(&mut self, value: Value) -> Result<Value, DecodeError> {
        match self.lines.peek()? {
            Some(line) => Err(line.error(0, ErrorKind::TrailingContent)),
            None => Ok(value),
        }
    }

    /// Reads lines into `root` and the containers they open until `root`'s block ends.
    fn run(&mut self, root: Frame<'a>) -> Result<Value, DecodeError> {
        let mut stack = vec![root];
        while let Some(top) = stack.last_mut() {
            let step = match top {
                Frame::Object {
                    object,
                    depth,
                    pending,
                } => self.step_object(object, *depth, pending)?,
                Frame::List(list) => self.step_list(list)?,
            };
            match step {
                Step::Continue => {}
                Step::Push(child) => stack.push(child),
                Step::PushTwo(object, child) => stack.extend([object, child]),
                Step::Done => {
                    let Some(frame) = stack.pop() else { break };
                    let value = self.finish(frame)?;
                    match stack.last_mut() {
                        Some(parent) => self.deliver(parent, value)?,
                        None => return Ok(value),
                    }
                }
            }
        }
        // Unreachable: the loop ends only by returning the root's value.
        Ok(Value::Null)
    }

    /// Reads the next field of an object at `depth`.
    fn step_object(
        &mut self,
        object: &mut Map<String, Value>,
        depth: usize,
        pending: &mut Option<Field<'a>>,
    ) -> Result<Step<'a>, DecodeError> {
        let Some(line) = self.peek_at(depth)? else {
            return Ok(Step::Done);
        };
        self.take(&line)?;
        if is_list_item(line.text) {
            return Err(line.error(0, ErrorKind::UnexpectedListItem));
        }
        match self.read_field(&line, 0, depth + 1)? {
            (field, Opened::Value(value)) => {
                self.insert(object, field, value)?;
                Ok(Step::Continue)
            }
            (field, Opened::Frame(child)) => {
                *pending = Some(field);
                Ok(Step::Push(child))
            }
        }
    }

    /// The value of a frame whose block has ended.
    fn finish(&mut self, frame: Frame<'a>) -> Result<Value, DecodeError> {
        match frame {
            Frame::Object { object, .. } => Ok(Value::Object(object)),
            Frame::List(list) => {
                if list.count > 0 {
                    self.open_arrays = self.open_arrays.saturating_sub(1);
                }
                self.check_count("list items", &list.declared, list.count, list.first_extra)?;
                Ok(Value::Array(list.items))
            }
        }
    }

    /// Hands a finished child's value to its parent frame.
    fn deliver(&self, parent: &mut Frame<'a>, value: Value) -> Result<(), DecodeError> {
        match parent {
            Frame::Object {
                object, pending, ..
            } => match pending.take() {
                Some(field) => self.insert(object, field, value),
                None => Ok(()),
            },
            Frame::List(list) => {
                list.items.push(value);
                Ok(())
            }
        }
    }

    /// The next line if it is at `depth`; `None` at the end or on a shallower line (the end of
    /// the current block). A deeper line belongs to nothing and is an error.
    pub(super) fn peek_at(&mut self, depth: usize) -> Result<Option<Line<'a>>, DecodeError> {
        match self.lines.peek()? {
            Some(line) if line.depth == depth => Ok(Some(line)),
            Some(line) if line.depth > depth => Err(line.error(0, ErrorKind::UnexpectedIndent)),
            _ => Ok(None),
        }
    }

    /// Consumes `line`, the line [`peek_at`](Self::peek_at) just returned.
    pub(super) fn take(&mut self, line: &Line<'a>) -> Result<(), DecodeError> {
        self.lines.advance();
        if let Some(blank) = line
            .blank_before
            .filter(|_| self.strict && self.open_arrays > 0)
        {
            return Err(DecodeError::at(blank, 1, ErrorKind::BlankLineInArray));
        }
        Ok(())
    }

    /// Reads the field starting at `start` of `line`; its nested content (object fields, list
    /// items, rows, entries) is at `child_depth`.
    pub(super) fn read_field(
        &mut self,
        line: &Line<'a>,
        start: usize,
        child_depth: usize,
    ) -> Result<(Field<'a>, Opened<'a>), DecodeError> {
        let text = line.text;
        match header::parse_key_line(text, start, self.strict).map_err(|f| line.fault(f))? {
            KeyLine::Value {
                key,
                key_at,
                value_at,
            } => {
                let field = Field {
                    key,
                    line: *line,
                    key_at,
                };
                let span = trim(text, value_at..text.len());
                let opened = if span.is_empty() {
                    Opened::Frame(Frame::Object {
                        object: Map::new(),
                        depth: child_depth,
                        pending: None,
                    })
                } else if text.get(span.clone()) == Some("[]") {
                    Opened::Value(Value::Array(Vec::new()))
                } else {
                    Opened::Value(primitive::parse_token(text, span).map_err(|f| line.fault(f))?)
                };
                Ok((field, opened))
            }
            KeyLine::Header {
                key: Some(key),
                key_at,
                header,
            } => {
                let field = Field {
                    key,
                    line: *line,
                    key_at,
                };
                Ok((field, self.open_array(line, &header, child_depth)?))
            }
            KeyLine::Header {
                key: None, key_at, ..
            } => Err(line.error(key_at, ErrorKind::KeylessHeader)),
        }
    }

    /// Inserts a field; a repeated key is an error in strict mode and otherwise replaces the
    /// earlier value in its original position (last write wins).
    pub(super) fn insert(
        &self,
        object: &mut Map<String, Value>,
        field: Field<'a>,
        value: Value,
    ) -> Result<(), DecodeError> {
        if self.strict && object.contains_key(&field.key) {
            return Err(field
                .line
                .error(field.key_at, ErrorKind::DuplicateKey(field.key)));
        }
        object.insert(field.key, value);
        Ok(())
    }

    /// A field for a keyed-table entry, whose key starts the line.
    pub(super) fn entry_field(key: String, line: &Line<'a>) -> Field<'a> {
        Field {
            key,
            line: *line,
            key_at: 0,
        }
    }
}
