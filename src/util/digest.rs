//! Content digests: the build cache's keys, a course's own cache folder.

use sha2::{Digest, Sha256};

/// A hex digest of the parts, each length-prefixed so that no two part lists collide.
pub fn of(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize()[..16]
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}
