"""hdlc_frames.py -- the QS-style HDLC framing of docs/protocol.md section 2
(SEQ, id, DATA, checksum; 0x7E flag, 0x7D escape) for the Python tools
that make or read streams without the host tool: rx_check.py (commands to
the firmware) and tests/fuzz/make_seeds.py (fuzzing seeds).  Written from
the protocol document, independently of the target library and the host.
"""

FLAG, ESC = 0x7E, 0x7D


def encode(seq, rid, data=b"", spoil=0):
    """One frame: SEQ, id, data and the checksum (XORed with spoil, to make
    a bad one), escaped, then the flag."""
    raw = bytes([seq & 0xFF, rid & 0xFF]) + bytes(data)
    raw += bytes([(~sum(raw) ^ spoil) & 0xFF])
    out = bytearray()
    for b in raw:
        if b in (FLAG, ESC):
            out += bytes([ESC, b ^ 0x20])
        else:
            out.append(b)
    out.append(FLAG)
    return bytes(out)


def decode(wire):
    """(seq, id, data) of every frame with a good checksum, and the number
    of bad ones (too short, a bad checksum, an escape before the flag)."""
    out, bad, cur, esc = [], 0, bytearray(), False
    for b in wire:
        if b == FLAG:
            if len(cur) >= 3 and not esc and sum(cur) & 0xFF == 0xFF:
                out.append((cur[0], cur[1], bytes(cur[2:-1])))
            elif cur:
                bad += 1
            cur, esc = bytearray(), False
        elif esc:
            cur.append(b ^ 0x20)
            esc = False
        elif b == ESC:
            esc = True
        else:
            cur.append(b)
    return out, bad
