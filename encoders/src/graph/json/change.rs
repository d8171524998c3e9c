//! JSON of a change's impact, before its sections: `"removed"` (the declarations the change
//! removed), `"namedBy"` (the places that still name them) and `"notInGraph"` (changed
//! declarations the graph does not hold).

use std::io::{self, Write};

use tsgraph_query::{Header, Question};

use super::JsonSink;

impl<W: Write> JsonSink<W> {
    /// The arrays of a change impact answer; nothing for other answers.
    pub(super) fn change_arrays(&mut self, header: &Header<'_>) -> io::Result<()> {
        let Question::ChangeImpact(change) = &header.question else {
            return Ok(());
        };
        write!(self.out, ",\"changed\":{}", change.changed)?;
        self.out.write_all(b",\"removed\":[")?;
        for (i, removed) in change.removed.iter().enumerate() {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            self.out.write_all(b"{\"id\":")?;
            self.string(&removed.id)?;
            write!(
                self.out,
                ",\"kind\":\"{}\",\"startLine\":{},\"endLine\":{},\"renamedTo\":",
                removed.kind.as_str(),
                removed.lines.0,
                removed.lines.1
            )?;
            match &removed.renamed_to {
                Some(id) => self.string(id)?,
                None => self.out.write_all(b"null")?,
            }
            self.out.write_all(b"}")?;
        }
        self.out.write_all(b"],\"namedBy\":[")?;
        for (i, place) in change.named_at.iter().enumerate() {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            self.out.write_all(b"{\"symbol\":")?;
            self.string(place.symbol)?;
            self.out.write_all(b",\"file\":")?;
            self.string(place.file)?;
            match place.line {
                Some(line) => write!(self.out, ",\"line\":{line}")?,
                None => self.out.write_all(b",\"line\":null")?,
            }
            write!(self.out, ",\"how\":\"{}\"}}", place.how)?;
        }
        self.out.write_all(b"],\"notInGraph\":[")?;
        for (i, id) in change.unknown.iter().enumerate() {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            self.string(id)?;
        }
        self.out.write_all(b"]")
    }
}
