//! Byte strings kept one after another with a directory in front: their number, where each
//! ends (u32 LE, counted from the first string's start), then the strings back to back. The
//! kept resolution frames its parts this way (`resolve::kept_exports`, `reach_key`), so that
//! one string is found without reading the others.

/// Frames written into a buffer of their own, then put out whole with their directory.
#[derive(Debug, Default)]
pub(crate) struct FrameWriter {
    ends: Vec<u32>,
    body: Vec<u8>,
}

impl FrameWriter {
    /// The bytes written so far; the current frame ends at [`FrameWriter::end_frame`].
    pub(crate) fn body(&mut self) -> &mut Vec<u8> {
        &mut self.body
    }

    /// Ends the current frame.
    pub(crate) fn end_frame(&mut self) {
        self.ends
            .push(u32::try_from(self.body.len()).unwrap_or(u32::MAX));
    }

    /// Adds `frame` whole.
    pub(crate) fn push(&mut self, frame: &[u8]) {
        self.body.extend_from_slice(frame);
        self.end_frame();
    }

    /// The frames with their directory, after what `out` holds.
    pub(crate) fn write_to(&self, out: &mut Vec<u8>) {
        out.reserve(4 + 4 * self.ends.len() + self.body.len());
        let count = u32::try_from(self.ends.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&count.to_le_bytes());
        for end in &self.ends {
            out.extend_from_slice(&end.to_le_bytes());
        }
        out.extend_from_slice(&self.body);
    }
}

/// The directory of frames read back.
#[derive(Debug, Default)]
pub(crate) struct Frames {
    ends: Vec<usize>,
}

impl Frames {
    /// The directory of `bytes` and the strings it frames, or `None` when it does not hold
    /// together: an end that goes down or past the strings, or bytes after the last string.
    pub(crate) fn parse(bytes: &[u8]) -> Option<(Frames, &[u8])> {
        let (count, rest) = bytes.split_first_chunk::<4>()?;
        let count = usize::try_from(u32::from_le_bytes(*count)).ok()?;
        let (directory, body) = rest.split_at_checked(count.checked_mul(4)?)?;
        let mut ends = Vec::with_capacity(count);
        let mut last = 0;
        for end in directory.chunks_exact(4) {
            let end = usize::try_from(u32::from_le_bytes([end[0], end[1], end[2], end[3]])).ok()?;
            if end < last || end > body.len() {
                return None;
            }
            ends.push(end);
            last = end;
        }
        (last == body.len()).then_some((Frames { ends }, body))
    }

    /// How many frames there are.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Frame `index` of `body` (the strings [`Frames::parse`] gave with this directory).
    pub(crate) fn get<'b>(&self, body: &'b [u8], index: usize) -> Option<&'b [u8]> {
        let start = index
            .checked_sub(1)
            .map_or(Some(0), |before| self.ends.get(before).copied())?;
        body.get(start..*self.ends.get(index)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_read_back_as_written_and_damage_is_refused() {
        let mut writer = FrameWriter::default();
        writer.push(b"one");
        writer.push(b"");
        writer.body().extend_from_slice(b"th");
        writer.body().extend_from_slice(b"ree");
        writer.end_frame();
        let mut bytes = b"head".to_vec();
        writer.write_to(&mut bytes);
        let (frames, body) = Frames::parse(&bytes[4..]).expect("parses");
        assert_eq!(frames.len(), 3);
        let read: Vec<&[u8]> = (0..3).filter_map(|i| frames.get(body, i)).collect();
        assert_eq!(read, [&b"one"[..], b"", b"three"]);
        assert_eq!(frames.get(body, 3), None);
        for cut in 0..bytes.len() - 4 {
            assert!(Frames::parse(&bytes[4..4 + cut]).is_none(), "cut at {cut}");
        }
        let mut longer = bytes[4..].to_vec();
        longer.push(0);
        assert!(
            Frames::parse(&longer).is_none(),
            "bytes after the last frame"
        );
        let mut down = bytes[4..].to_vec();
        down[4] = 9; // the first frame ends after the second
        assert!(Frames::parse(&down).is_none());
        let empty = {
            let mut out = Vec::new();
            FrameWriter::default().write_to(&mut out);
            out
        };
        assert_eq!(Frames::parse(&empty).map(|(f, _)| f.len()), Some(0));
    }
}
