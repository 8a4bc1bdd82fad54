//! Tesseract's C API (`tesseract/capi.h`), loaded at run time with `libloading`.
//!
//! Why at run time: the workspace must build with nothing but cargo, and only OCR needs
//! Tesseract. Why the declarations are hand-written: no `-sys` crate loads the library at
//! run time (`tesseract-sys`/`leptonica-sys` link it at build time), and their bindgen
//! costs clang and the dev headers on every machine that builds. The engine uses nine
//! functions of the C API, unchanged since Tesseract 4.0; their signatures are copied from
//! `capi.h` below. Images go in as raw 8-bit pixels (`TessBaseAPISetImage`), so Leptonica
//! is never called from here (libtesseract loads it itself). Words come out as the TSV
//! they always did (`TessBaseAPIGetTsvText`, which recognizes first): its block, paragraph
//! and line numbers are what `engine.rs` groups words by, so the reads are unchanged.
//!
//! The library is opened once per process ([`api`], a `OnceLock`: safe from any thread;
//! a failure is remembered too) and never closed, so the function pointers stay valid for
//! the process's life. Each engine owns one `TessBaseAPI` ([`Handle`]).

use crate::error::VisionError;
use libloading::Library;
use std::ffi::{c_char, c_int, CStr};
use std::ptr::NonNull;
use std::sync::OnceLock;

/// The libraries tried, in order: Tesseract 5 (Debian 12+, Ubuntu 22.04+), 4, then the
/// unversioned name (a dev package's symlink, or a local build).
pub(crate) const LIBRARIES: &[&str] =
    &["libtesseract.so.5", "libtesseract.so.4", "libtesseract.so"];

/// `TessBaseAPI`, opaque.
#[repr(C)]
pub(crate) struct TessBaseApi {
    _opaque: [u8; 0],
}

type Api = *mut TessBaseApi;

/// The loaded library and the functions the engine calls.
pub(crate) struct Tesseract {
    /// `const char* TessVersion()`
    version: unsafe extern "C" fn() -> *const c_char,
    /// `void TessDeleteText(const char* text)`
    delete_text: unsafe extern "C" fn(*const c_char),
    /// `TessBaseAPI* TessBaseAPICreate()`
    create: unsafe extern "C" fn() -> Api,
    /// `void TessBaseAPIDelete(TessBaseAPI* handle)` (ends the engine first)
    delete: unsafe extern "C" fn(Api),
    /// `int TessBaseAPIInit3(TessBaseAPI* handle, const char* datapath, const char* language)`
    init3: unsafe extern "C" fn(Api, *const c_char, *const c_char) -> c_int,
    /// `BOOL TessBaseAPISetVariable(TessBaseAPI* handle, const char* name, const char* value)`
    set_variable: unsafe extern "C" fn(Api, *const c_char, *const c_char) -> c_int,
    /// `void TessBaseAPISetImage(TessBaseAPI* handle, const unsigned char* imagedata,
    /// int width, int height, int bytes_per_pixel, int bytes_per_line)`
    set_image: unsafe extern "C" fn(Api, *const u8, c_int, c_int, c_int, c_int),
    /// `void TessBaseAPISetSourceResolution(TessBaseAPI* handle, int ppi)`
    set_source_resolution: unsafe extern "C" fn(Api, c_int),
    /// `char* TessBaseAPIGetTsvText(TessBaseAPI* handle, int page_number)` (recognizes
    /// first if needed)
    get_tsv_text: unsafe extern "C" fn(Api, c_int) -> *mut c_char,
    /// libgomp's `int omp_get_thread_limit()`, found through libtesseract's dependencies;
    /// `None` for a Tesseract built without OpenMP.
    omp_get_thread_limit: Option<unsafe extern "C" fn() -> c_int>,
    /// Kept open for the process's life: the pointers above point into it.
    _library: Library,
}

/// The process's Tesseract, loaded on first use.
pub(crate) fn api() -> Result<&'static Tesseract, VisionError> {
    static TESSERACT: OnceLock<Result<Tesseract, VisionError>> = OnceLock::new();
    TESSERACT
        .get_or_init(|| load(LIBRARIES))
        .as_ref()
        .map_err(Clone::clone)
}

/// The first of `names` that loads, with every function the engine needs.
pub(crate) fn load(names: &[&'static str]) -> Result<Tesseract, VisionError> {
    let mut why: Vec<String> = Vec::new();
    for &name in names {
        // SAFETY: loading runs the library's initialisers (libtesseract's, liblept's,
        // libgomp's), which have no preconditions on the caller.
        match unsafe { Library::new(name) } {
            Ok(library) => return Tesseract::resolve(library, name),
            Err(e) => why.push(e.to_string()),
        }
    }
    Err(VisionError::NoTesseract {
        tried: names.join(", "),
        detail: why.join("; "),
    })
}

/// The function `symbol` of `library` (loaded as `name`) as a `T`.
///
/// # Safety
/// `T` must be the function pointer type of the symbol's C declaration, used only while
/// `library` is loaded.
unsafe fn symbol<T: Copy>(library: &Library, name: &str, symbol: &str) -> Result<T, VisionError> {
    // SAFETY: the caller's.
    unsafe { library.get::<T>(symbol.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| VisionError::BadTesseract {
            library: name.into(),
            detail: format!("no {symbol}: {e}"),
        })
}

impl Tesseract {
    fn resolve(library: Library, name: &'static str) -> Result<Tesseract, VisionError> {
        // SAFETY (every `symbol` call): each field's type is the C declaration in capi.h
        // quoted in its doc, and the pointers are used only while `library` is open.
        unsafe {
            Ok(Tesseract {
                version: symbol(&library, name, "TessVersion")?,
                delete_text: symbol(&library, name, "TessDeleteText")?,
                create: symbol(&library, name, "TessBaseAPICreate")?,
                delete: symbol(&library, name, "TessBaseAPIDelete")?,
                init3: symbol(&library, name, "TessBaseAPIInit3")?,
                set_variable: symbol(&library, name, "TessBaseAPISetVariable")?,
                set_image: symbol(&library, name, "TessBaseAPISetImage")?,
                set_source_resolution: symbol(&library, name, "TessBaseAPISetSourceResolution")?,
                get_tsv_text: symbol(&library, name, "TessBaseAPIGetTsvText")?,
                // libgomp's declaration (omp.h); dlsym searches libtesseract's dependencies.
                omp_get_thread_limit: symbol(&library, name, "omp_get_thread_limit").ok(),
                _library: library,
            })
        }
    }

    /// `TessVersion()`: `5.3.0`.
    pub(crate) fn version(&self) -> String {
        // SAFETY: a static NUL-terminated string owned by the library.
        unsafe { CStr::from_ptr((self.version)()) }
            .to_string_lossy()
            .into_owned()
    }

    /// The most threads OpenMP lets Tesseract use; 1 without OpenMP.
    pub(crate) fn thread_limit(&self) -> i32 {
        // SAFETY: a getter with no arguments.
        self.omp_get_thread_limit.map_or(1, |f| unsafe { f() })
    }
}

/// One `TessBaseAPI`, initialised with a language; deleted on drop.
pub(crate) struct Handle {
    tess: &'static Tesseract,
    api: NonNull<TessBaseApi>,
}

// SAFETY: a TessBaseAPI is not tied to the thread that made it; `&mut self` on every call
// keeps it to one thread at a time (it is not `Sync`).
unsafe impl Send for Handle {}

impl Handle {
    /// `TessBaseAPICreate` + `TessBaseAPIInit3` with the default data path
    /// (`TESSDATA_PREFIX` or the system's).
    pub(crate) fn new(tess: &'static Tesseract, language: &CStr) -> Result<Handle, VisionError> {
        // SAFETY: no arguments; the result is checked for null.
        let api = NonNull::new(unsafe { (tess.create)() })
            .ok_or_else(|| VisionError::Init("TessBaseAPICreate returned null".into()))?;
        let handle = Handle { tess, api };
        // SAFETY: a live handle; a null data path means the default; `language` is a
        // NUL-terminated string Tesseract copies.
        let code = unsafe { (tess.init3)(api.as_ptr(), std::ptr::null(), language.as_ptr()) };
        if code != 0 {
            return Err(VisionError::Init(format!(
                "TessBaseAPIInit3 returned {code} for {language:?}"
            )));
        }
        Ok(handle)
    }

    /// `TessBaseAPISetVariable`: false when Tesseract does not know `name` or rejects
    /// `value`.
    pub(crate) fn set_variable(&mut self, name: &CStr, value: &CStr) -> bool {
        // SAFETY: a live handle and two NUL-terminated strings Tesseract copies.
        unsafe { (self.tess.set_variable)(self.api.as_ptr(), name.as_ptr(), value.as_ptr()) != 0 }
    }

    /// `TessBaseAPISetImage` over `width`×`height` 8-bit gray pixels, rows packed
    /// (Tesseract copies them), then `TessBaseAPISetSourceResolution(ppi)`.
    pub(crate) fn set_gray_image(
        &mut self,
        pixels: &[u8],
        width: u32,
        height: u32,
        ppi: i32,
    ) -> Result<(), VisionError> {
        let fits = |v: u32| c_int::try_from(v).ok().filter(|&v| v > 0);
        let (Some(w), Some(h)) = (fits(width), fits(height)) else {
            return Err(VisionError::BadImage(format!(
                "Tesseract: {width}×{height} pixels"
            )));
        };
        if (width as usize).checked_mul(height as usize) != Some(pixels.len()) {
            return Err(VisionError::BadImage(format!(
                "Tesseract: {} bytes for {width}×{height} gray pixels",
                pixels.len()
            )));
        }
        // SAFETY: a live handle; `pixels` holds exactly `h` rows of `w` one-byte pixels,
        // which Tesseract copies before returning.
        unsafe {
            (self.tess.set_image)(self.api.as_ptr(), pixels.as_ptr(), w, h, 1, w);
            (self.tess.set_source_resolution)(self.api.as_ptr(), ppi);
        }
        Ok(())
    }

    /// `TessBaseAPIGetTsvText`: recognizes the image set last and returns its TSV.
    pub(crate) fn tsv_text(&mut self, page: i32) -> Result<String, VisionError> {
        // SAFETY: a live handle; the result is null or a string we own until
        // TessDeleteText.
        let text = unsafe { (self.tess.get_tsv_text)(self.api.as_ptr(), page) };
        if text.is_null() {
            return Err(VisionError::Ocr("TSV output: recognition failed".into()));
        }
        // SAFETY: non-null, NUL-terminated, ours; copied before it is freed.
        let out = unsafe { CStr::from_ptr(text) }
            .to_str()
            .map(str::to_owned)
            .map_err(|e| VisionError::Ocr(format!("TSV output: {e}")));
        // SAFETY: allocated by Tesseract for us, freed once.
        unsafe { (self.tess.delete_text)(text) };
        out
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: a live handle, deleted once.
        unsafe { (self.tess.delete)(self.api.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_is_a_clear_error_naming_it_and_how_to_install_it() {
        let err = load(&["libtesseract-missing.so.9", "libtesseract-gone.so"])
            .err()
            .expect("no such library");
        assert!(matches!(err, VisionError::NoTesseract { .. }), "{err:?}");
        let msg = err.to_string();
        for part in [
            "libtesseract-missing.so.9, libtesseract-gone.so",
            "apt install libtesseract5 tesseract-ocr-eng",
            "scripts/setup-system.sh",
        ] {
            assert!(msg.contains(part), "{part:?} not in {msg:?}");
        }
    }

    #[test]
    fn a_library_without_the_c_api_is_not_taken_for_tesseract() {
        // libm is on every glibc system and has none of Tesseract's functions.
        let err = load(&["libm.so.6"]).err().expect("libm is not Tesseract");
        let msg = err.to_string();
        assert!(
            matches!(err, VisionError::BadTesseract { .. }) && msg.contains("libm.so.6"),
            "{msg}"
        );
        assert!(msg.contains("TessVersion"), "{msg}");
    }
}
