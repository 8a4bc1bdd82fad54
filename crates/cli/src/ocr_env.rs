//! One OCR thread: libgomp (under libtesseract) reads `OMP_THREAD_LIMIT` when the
//! process loads, before `main`, and OpenMP's default on two cores made OCR ≈ 5× slower
//! (platform notes). So the CLI, started without the variable, re-executes itself once
//! with it (same pid, arguments and environment otherwise).

use std::os::unix::process::CommandExt;

pub fn single_thread_ocr() {
    let (key, value) = arc_vision::SINGLE_THREAD_ENV;
    if std::env::var_os(key).is_some() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut args = std::env::args_os();
    let arg0 = args.next().unwrap_or_else(|| exe.clone().into_os_string());
    // `exec` returns only on failure (a binary replaced meanwhile): then go on as we are,
    // with OCR on OpenMP's default threads.
    let _ = std::process::Command::new(exe)
        .arg0(arg0)
        .args(args)
        .env(key, value)
        .exec();
}
