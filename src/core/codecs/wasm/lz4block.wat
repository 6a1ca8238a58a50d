;; One LZ4 block (the LZ4 block format 1.6.x) decoded inside WebAssembly memory, for
;; src/core/codecs/lz4.ts. Compiled to lz4block.wasm by `node src/core/codecs/wasm/assemble.mjs`
;; (wabt); a unit test checks that the committed .wasm is this file's compilation.
;;
;; Why hand-written: the frame layer (descriptor, checksums, exact lengths, located errors) stays
;; in TypeScript, and what it needs underneath is a block decoder that works in memory it owns,
;; with an output bound and a window start. No npm package exposes that (DESIGN.md, Performance).
;;
;; The decoder is as strict as the TypeScript one in lz4.ts: it returns -1 for anything that
;; one rejects (block ends inside a sequence, literals past the block, a zero offset or one
;; reaching before `win`, output past `dstEnd`), and the caller then re-decodes the frame in
;; TypeScript, which says what and where. It never reads before `ip` or past `end + 16`, and never
;; writes outside [op, dstEnd + 32): the caller leaves 16 bytes after the input and 32 after the
;; output for the wide copies.
(module
  (memory (export "memory") 1)

  ;; Decodes src[ip, end) to dst[op, ...), at most up to dstEnd; matches may reach back to win.
  ;; Returns the new end of the output, or -1.
  (func (export "block") (param $ip i32) (param $end i32) (param $op i32) (param $dstEnd i32) (param $win i32) (result i32)
    (local $token i32) (local $lit i32) (local $b i32) (local $off i32) (local $len i32) (local $from i32) (local $stop i32)
    (loop $sequence
      (block $general
        ;; The common sequence, away from both ends: at most 14 literals, a match of at most 18
        ;; bytes at an offset of 8 or more. Everything is checked before anything is consumed,
        ;; so any other sequence goes to the general code below from the same `ip`. With 32
        ;; bytes of input and 64 of output room left, no length needs its own bounds check.
        (br_if $general (i32.lt_u (i32.sub (local.get $end) (local.get $ip)) (i32.const 32)))
        (br_if $general (i32.lt_u (i32.sub (local.get $dstEnd) (local.get $op)) (i32.const 64)))
        (local.set $token (i32.load8_u (local.get $ip)))
        (local.set $lit (i32.shr_u (local.get $token) (i32.const 4)))
        (local.set $len (i32.and (local.get $token) (i32.const 15)))
        (br_if $general (i32.or (i32.eq (local.get $lit) (i32.const 15)) (i32.eq (local.get $len) (i32.const 15))))
        (local.set $off (i32.load16_u offset=1 (i32.add (local.get $ip) (local.get $lit))))
        (br_if $general (i32.lt_u (local.get $off) (i32.const 8)))
        (if (i32.gt_u (local.get $off) (i32.sub (i32.add (local.get $op) (local.get $lit)) (local.get $win)))
          (then (return (i32.const -1))))
        (i64.store (local.get $op) (i64.load offset=1 (local.get $ip)))
        (i64.store offset=8 (local.get $op) (i64.load offset=9 (local.get $ip)))
        (local.set $ip (i32.add (local.get $ip) (i32.add (local.get $lit) (i32.const 3))))
        (local.set $op (i32.add (local.get $op) (local.get $lit)))
        ;; 24 bytes in three steps of 8: with an offset of 8 or more each step reads only bytes
        ;; already final, the earlier steps' included.
        (local.set $from (i32.sub (local.get $op) (local.get $off)))
        (i64.store (local.get $op) (i64.load (local.get $from)))
        (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $from)))
        (i64.store offset=16 (local.get $op) (i64.load offset=16 (local.get $from)))
        (local.set $op (i32.add (local.get $op) (i32.add (local.get $len) (i32.const 4))))
        (br $sequence))
      ;; A block always ends with literals, so running out here is an error.
      (if (i32.ge_u (local.get $ip) (local.get $end)) (then (return (i32.const -1))))
      (local.set $token (i32.load8_u (local.get $ip)))
      (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
      (local.set $lit (i32.shr_u (local.get $token) (i32.const 4)))
      (if (i32.eq (local.get $lit) (i32.const 15))
        (then
          (loop $more
            (if (i32.ge_u (local.get $ip) (local.get $end)) (then (return (i32.const -1))))
            (local.set $b (i32.load8_u (local.get $ip)))
            (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
            (local.set $lit (i32.add (local.get $lit) (local.get $b)))
            (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
      ;; Compared as differences so that no sum can wrap.
      (if (i32.gt_u (local.get $lit) (i32.sub (local.get $end) (local.get $ip))) (then (return (i32.const -1))))
      (if (i32.gt_u (local.get $lit) (i32.sub (local.get $dstEnd) (local.get $op))) (then (return (i32.const -1))))
      (if (i32.le_u (local.get $lit) (i32.const 16))
        (then
          ;; Most literal runs are short: copy 16 bytes whatever the length (the slack takes the rest).
          (i64.store (local.get $op) (i64.load (local.get $ip)))
          (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $ip))))
        (else (memory.copy (local.get $op) (local.get $ip) (local.get $lit))))
      (local.set $ip (i32.add (local.get $ip) (local.get $lit)))
      (local.set $op (i32.add (local.get $op) (local.get $lit)))
      (if (i32.eq (local.get $ip) (local.get $end)) (then (return (local.get $op))))
      (if (i32.lt_u (i32.sub (local.get $end) (local.get $ip)) (i32.const 2)) (then (return (i32.const -1))))
      (local.set $off (i32.load16_u (local.get $ip)))
      (local.set $ip (i32.add (local.get $ip) (i32.const 2)))
      (if (i32.or (i32.eqz (local.get $off)) (i32.gt_u (local.get $off) (i32.sub (local.get $op) (local.get $win))))
        (then (return (i32.const -1))))
      (local.set $len (i32.add (i32.and (local.get $token) (i32.const 15)) (i32.const 4)))
      (if (i32.eq (local.get $len) (i32.const 19))
        (then
          (loop $more
            (if (i32.ge_u (local.get $ip) (local.get $end)) (then (return (i32.const -1))))
            (local.set $b (i32.load8_u (local.get $ip)))
            (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
            (local.set $len (i32.add (local.get $len) (local.get $b)))
            (br_if $more (i32.eq (local.get $b) (i32.const 255))))))
      (if (i32.gt_u (local.get $len) (i32.sub (local.get $dstEnd) (local.get $op))) (then (return (i32.const -1))))
      (local.set $from (i32.sub (local.get $op) (local.get $off)))
      (local.set $stop (i32.add (local.get $op) (local.get $len)))
      (block $copied
        (if (i32.ge_u (local.get $off) (i32.const 16))
          (then
            ;; Source and destination do not overlap: one bulk copy for long matches.
            (if (i32.and (i32.ge_u (local.get $off) (local.get $len)) (i32.gt_u (local.get $len) (i32.const 48)))
              (then (memory.copy (local.get $op) (local.get $from) (local.get $len)) (br $copied)))
            ;; Otherwise 16 bytes at a time: each read ends at or before the write, so it reads
            ;; only final bytes, even when the match repeats itself. Up to 15 bytes land past
            ;; `stop`, in the slack or where the next sequence writes.
            (loop $wide
              (i64.store (local.get $op) (i64.load (local.get $from)))
              (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $from)))
              (local.set $op (i32.add (local.get $op) (i32.const 16)))
              (local.set $from (i32.add (local.get $from) (i32.const 16)))
              (br_if $wide (i32.lt_u (local.get $op) (local.get $stop))))
            (br $copied)))
        (if (i32.ge_u (local.get $off) (i32.const 8))
          (then
            (loop $eight
              (i64.store (local.get $op) (i64.load (local.get $from)))
              (local.set $op (i32.add (local.get $op) (i32.const 8)))
              (local.set $from (i32.add (local.get $from) (i32.const 8)))
              (br_if $eight (i32.lt_u (local.get $op) (local.get $stop))))
            (br $copied)))
        (if (i32.eq (local.get $off) (i32.const 1))
          (then (memory.fill (local.get $op) (i32.load8_u (local.get $from)) (local.get $len)) (br $copied)))
        ;; Offsets 2 to 7 repeat a short pattern: byte by byte.
        (loop $bytes
          (i32.store8 (local.get $op) (i32.load8_u (local.get $from)))
          (local.set $op (i32.add (local.get $op) (i32.const 1)))
          (local.set $from (i32.add (local.get $from) (i32.const 1)))
          (br_if $bytes (i32.lt_u (local.get $op) (local.get $stop)))))
      (local.set $op (local.get $stop))
      (br $sequence))
    (unreachable))
)
