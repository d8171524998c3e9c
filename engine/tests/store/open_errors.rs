//! What opening a store says when it cannot: another handle holds it, the user may not read
//! it, it is not there. None of these is corruption, and none suggests a rebuild.

use tsgraph_engine::{GraphBatch, Store, StoreError};

#[test]
fn a_store_open_elsewhere_is_locked_not_corrupt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    let first = Store::open_or_create(&path).unwrap();
    first.replace_all(&GraphBatch::default()).unwrap();
    let err = Store::open(&path).err().expect("the file is locked");
    let text = err.to_string();
    assert!(matches!(err, StoreError::Locked { .. }), "{text}");
    assert!(
        !text.contains("--rebuild") && !text.contains("corrupt"),
        "{text}"
    );
    // On Linux `/proc/locks` names the holder: this process.
    if cfg!(target_os = "linux") {
        assert!(
            matches!(err, StoreError::Locked { holder: Some(pid), .. } if pid == std::process::id()),
            "{text}"
        );
        assert!(text.contains("another handle in this process"), "{text}");
    }
    drop(first);
    Store::open(&path).unwrap();
}

/// Set in the environment of this test binary when it is run again as an unprivileged user.
#[cfg(unix)]
const DENIED_STORE: &str = "TSGRAPH_TEST_DENIED_STORE";

#[cfg(unix)]
#[test]
fn a_store_the_user_may_not_read_is_a_permission_error() {
    use std::os::unix::fs::PermissionsExt;
    use std::os::unix::process::CommandExt;
    if let Some(path) = std::env::var_os(DENIED_STORE) {
        return assert_permission_denied(std::path::Path::new(&path));
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    Store::open_or_create(&path).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::File::open(&path).is_err() {
        return assert_permission_denied(&path);
    }
    // This user is not stopped by the mode (root has CAP_DAC_OVERRIDE): run this test again
    // as `nobody`, who is, with the folder open to it and the file still mode 000.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let test_name = "open_errors::a_store_the_user_may_not_read_is_a_permission_error";
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test_name, "--test-threads=1"])
        .env(DENIED_STORE, &path)
        .uid(65534)
        .gid(65534)
        .status();
    match status {
        Ok(status) => assert!(status.success(), "the unprivileged run failed: {status}"),
        Err(err) => eprintln!(
            "skipped: chmod does not restrict this user and `nobody` cannot run the test ({err})"
        ),
    }
}

#[cfg(unix)]
fn assert_permission_denied(path: &std::path::Path) {
    let err = Store::open(path).err().expect("permission denied");
    let text = err.to_string();
    assert!(matches!(err, StoreError::PermissionDenied { .. }), "{text}");
    assert!(
        !text.contains("--rebuild") && !text.contains("corrupt"),
        "{text}"
    );
    assert!(text.contains("permission denied"), "{text}");
}

#[test]
fn a_missing_store_is_an_io_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("absent.redb");
    let err = Store::open(&path).err().expect("not there");
    let text = err.to_string();
    assert!(matches!(err, StoreError::Io { .. }), "{text}");
    assert!(
        text.contains("absent.redb") && !text.contains("--rebuild"),
        "{text}"
    );
}

#[test]
fn an_empty_file_is_an_empty_store() {
    // What an index killed between creating the file and redb's first write leaves.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    std::fs::write(&path, b"").unwrap();
    let store = Store::open_or_create(&path).unwrap();
    assert_eq!(store.snapshot().unwrap().node_count().unwrap(), 0);
}

#[test]
fn a_file_that_is_not_a_store_is_corrupt_and_suggests_a_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.redb");
    std::fs::write(&path, b"not a redb file".repeat(500)).unwrap();
    let err = Store::open_or_create(&path).err().expect("corrupt");
    let text = err.to_string();
    assert!(err.is_corrupted(), "{text}");
    assert!(
        text.contains("g.redb") && text.contains("tsgraph index --rebuild"),
        "{text}"
    );
}
