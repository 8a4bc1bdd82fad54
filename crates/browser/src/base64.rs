//! A minimal standard-alphabet base64 decoder for screenshot data, so the crate needs no
//! extra dependency for the one place CDP sends binary.

/// The input is not valid standard base64.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid base64 at byte {position}")]
pub struct DecodeError {
    pub position: usize,
}

/// Decodes standard base64 (padding optional; ASCII whitespace ignored).
pub fn decode(input: &str) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::with_capacity(input.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0u32;
    let mut padding = 0usize;
    for (position, byte) in input.bytes().enumerate() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                padding += 1;
                continue;
            }
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return Err(DecodeError { position }),
        };
        // Data after padding is malformed.
        if padding > 0 {
            return Err(DecodeError { position });
        }
        acc = (acc << 6) | u32::from(value);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    // A lone sextet cannot encode a byte.
    if bits >= 6 {
        return Err(DecodeError {
            position: input.len(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn decodes_rfc4648_vectors() {
        for (enc, dec) in [
            ("", ""),
            ("Zg==", "f"),
            ("Zm8=", "fo"),
            ("Zm9v", "foo"),
            ("Zm9vYg==", "foob"),
            ("Zm9vYmE=", "fooba"),
            ("Zm9vYmFy", "foobar"),
            ("Zm9vYmFy\n", "foobar"),
        ] {
            assert_eq!(decode(enc).unwrap(), dec.as_bytes(), "{enc}");
        }
    }

    #[test]
    fn rejects_garbage() {
        assert_eq!(decode("Zm9v!").unwrap_err().position, 4);
        assert!(decode("Zg==Zg").is_err());
        assert!(decode("Z").is_err());
    }

    #[test]
    fn decodes_png_signature() {
        assert_eq!(
            decode("iVBORw0KGgo=").unwrap(),
            [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]
        );
    }
}
