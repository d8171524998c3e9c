//! A file's reach key: the names through which a change to what another module exports can
//! reach it ([`crate::reach`]), kept for every file with the resolution, so that an update
//! reads the import uses only of the importers a changed name may reach. Appending an export
//! to the 1M-line synthetic's most-imported file asked all of its 3,241 importers what they
//! name, and none named the new function.
//!
//! The key is computed from the file's [`ImportUses`] over all its imports, whatever module
//! each resolves to: it may let through an importer that names the changed name only from
//! another module, which the exact test ([`crate::reach`]) then passes over; it never keeps
//! out one the change reaches.

use xxhash_rust::xxh3::xxh3_64;

use crate::export_change::ExportChange;
use crate::frames::{FrameWriter, Frames};
use crate::import_uses::ImportUses;

/// The names through which a change can reach a file (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ReachKey {
    /// A change to any name reaches it: it re-exports a module whole (`export *`), or uses
    /// a namespace whole, or exports one again.
    any: bool,
    /// The hashes of the names a change to which can reach it, ascending, each once: every
    /// name it imports, and every member it names of a namespace it imports (in code and in
    /// qualified types). Sixteen bits: a file names a few dozen, so another name's hash is
    /// among them once in a thousand asks or less, and costs one importer's uses read.
    names: Vec<u16>,
}

impl ReachKey {
    /// The key of a file that does `uses` with its imports.
    pub(crate) fn of(uses: &ImportUses) -> ReachKey {
        let mut names = Vec::new();
        for import in &uses.imports {
            if import.reexport_all {
                return ReachKey::ANY;
            }
            for binding in &import.bindings {
                if binding.imported != "*" {
                    names.push(hash(&binding.imported));
                    continue;
                }
                let namespace = &binding.namespace;
                let whole = import.reexport
                    || !binding.exported_again.is_empty()
                    || namespace.whole
                    || namespace.types.iter().any(Option::is_none);
                if whole {
                    return ReachKey::ANY;
                }
                names.extend(namespace.members.iter().map(|member| hash(member)));
                names.extend(namespace.types.iter().flatten().map(|member| hash(member)));
            }
        }
        names.sort_unstable();
        names.dedup();
        ReachKey { any: false, names }
    }

    const ANY: ReachKey = ReachKey {
        any: true,
        names: Vec::new(),
    };

    /// Whether `change`, to a module this file imports, may reach it: `false` only when it
    /// imports none of the changed names and names none of them as a namespace's member.
    pub(crate) fn may_reach(&self, change: &ExportChange) -> bool {
        match change {
            ExportChange::All => true,
            ExportChange::Names(changed) => {
                self.any
                    || (changed.keys()).any(|name| self.names.binary_search(&hash(name)).is_ok())
            }
        }
    }
}

/// A name's hash as keys hold it: two names that share one only let an importer through.
fn hash(name: &str) -> u16 {
    xxh3_64(name.as_bytes()) as u16
}

/// Every file's key as the kept resolution holds them: a frame per file (`crate::frames`),
/// holding 1 for a key that lets every change through (else 0), then its hashes (u16 LE).
/// Fixed widths: the hashes do not compress, and the section is read whole by every new
/// process.
pub(crate) fn encode_keys<'k>(keys: impl Iterator<Item = &'k ReachKey>) -> Vec<u8> {
    let mut frames = FrameWriter::default();
    for key in keys {
        let body = frames.body();
        body.push(u8::from(key.any));
        for name in &key.names {
            body.extend_from_slice(&name.to_le_bytes());
        }
        frames.end_frame();
    }
    let mut out = Vec::new();
    frames.write_to(&mut out);
    out
}

/// The keys [`encode_keys`] wrote, or `None` when the bytes do not hold together.
pub(crate) fn decode_keys(bytes: &[u8]) -> Option<Vec<ReachKey>> {
    let (frames, body) = Frames::parse(bytes)?;
    (0..frames.len())
        .map(|index| {
            let (any, hashes) = frames.get(body, index)?.split_first()?;
            let any = match any {
                0 => false,
                1 => true,
                _ => return None,
            };
            let pairs = hashes.chunks_exact(2);
            if !pairs.remainder().is_empty() {
                return None;
            }
            let names = pairs
                .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
                .collect();
            Some(ReachKey { any, names })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import_uses::{BindingUse, ImportUse, NamespaceUse};

    fn uses(imports: Vec<ImportUse>) -> ImportUses {
        ImportUses { hash: 0, imports }
    }

    fn binding(imported: &str, namespace: NamespaceUse) -> BindingUse {
        BindingUse {
            imported: imported.into(),
            local: "local".into(),
            exported_again: Vec::new(),
            namespace,
        }
    }

    fn import(bindings: Vec<BindingUse>) -> ImportUse {
        ImportUse {
            specifier: "./x".into(),
            bindings,
            ..ImportUse::default()
        }
    }

    fn changed(names: &[&str]) -> ExportChange {
        let mut change = ExportChange::none();
        for name in names {
            change.add(name);
        }
        change
    }

    #[test]
    fn imported_names_and_named_members_let_a_change_through() {
        let members = NamespaceUse {
            members: vec!["hash".into()],
            types: vec![Some("Hasher".into())],
            ..NamespaceUse::default()
        };
        let key = ReachKey::of(&uses(vec![import(vec![
            binding("make", NamespaceUse::default()),
            binding("*", members),
        ])]));
        assert!(key.may_reach(&changed(&["make"])));
        assert!(key.may_reach(&changed(&["other", "hash"])));
        assert!(key.may_reach(&changed(&["Hasher"])));
        assert!(!key.may_reach(&changed(&["appended"])));
        assert!(!key.may_reach(&ExportChange::none()));
        assert!(key.may_reach(&ExportChange::All));
    }

    #[test]
    fn whole_uses_let_every_change_through() {
        let whole = |namespace: NamespaceUse| uses(vec![import(vec![binding("*", namespace)])]);
        let keys = [
            whole(NamespaceUse {
                whole: true,
                ..NamespaceUse::default()
            }),
            whole(NamespaceUse {
                types: vec![None],
                ..NamespaceUse::default()
            }),
            uses(vec![ImportUse {
                reexport_all: true,
                ..import(Vec::new())
            }]),
            uses(vec![ImportUse {
                reexport: true,
                ..import(vec![binding("*", NamespaceUse::default())])
            }]),
            uses(vec![import(vec![BindingUse {
                exported_again: vec!["again".into()],
                ..binding("*", NamespaceUse::default())
            }])]),
        ];
        for (i, uses) in keys.iter().enumerate() {
            assert!(
                ReachKey::of(uses).may_reach(&changed(&["appended"])),
                "case {i}"
            );
        }
        // A side-effect import names nothing.
        assert!(!ReachKey::of(&uses(vec![import(Vec::new())])).may_reach(&changed(&["x"])));
    }

    #[test]
    fn keys_decode_as_encoded_and_damage_is_refused() {
        let keys = vec![
            ReachKey::of(&uses(vec![import(vec![
                binding("a", NamespaceUse::default()),
                binding("b", NamespaceUse::default()),
            ])])),
            ReachKey::ANY,
            ReachKey::default(),
            ReachKey::of(&uses(vec![import(vec![binding(
                "c",
                NamespaceUse::default(),
            )])])),
        ];
        let bytes = encode_keys(keys.iter());
        let first_flag = 4 + 4 * keys.len();
        assert_eq!(decode_keys(&bytes), Some(keys));
        for cut in 0..bytes.len() {
            assert_eq!(decode_keys(&bytes[..cut]), None, "cut at {cut}");
        }
        let mut forged = bytes.clone();
        forged[first_flag] = 2; // neither 0 nor 1
        assert_eq!(decode_keys(&forged), None);
        let mut odd = bytes.clone();
        odd[4] = 2; // the first key's frame ends inside a hash
        assert_eq!(decode_keys(&odd), None);
    }
}
