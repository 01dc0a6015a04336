//! Builds the data files of every game into the kernel: every file under the repository's `data/` becomes an
//! `include_str!` entry of `BUILTIN_FILES`, so `caisson` needs nothing beside its binary.
//! `include_str!` makes cargo rebuild when a file changes; the directory itself is watched for
//! files added or removed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let root = manifest.join("../../data").canonicalize()?;
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files)?;
    files.sort();
    let mut code = String::from(
        "/// Every data file, by its path under `data/`.\npub static BUILTIN_FILES: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        let rel = f.strip_prefix(&root)?.to_string_lossy().replace('\\', "/");
        writeln!(code, "    ({rel:?}, include_str!({:?})),", f.display().to_string())?;
    }
    code.push_str("];\n");
    std::fs::write(PathBuf::from(std::env::var("OUT_DIR")?).join("builtin_data.rs"), code)?;
    Ok(())
}
