;; The two hot walks of an fst (spec fst.md §3–§5) inside WebAssembly, for
;; src/core/formats/fst/fastWalk.ts: streaming every key in order, and looking one key up.
;; Compiled to fstwalk.wasm by `node src/core/codecs/wasm/assemble.mjs` (wabt); a unit test checks
;; that the committed .wasm is this file's compilation.
;;
;; Why hand-written: the TypeScript walk (stream.ts, reader.ts) stays 4–6× slower than the Rust
;; fst crate however lean its node decoder is made (DESIGN.md, Performance); no package walks fst
;; node bytes. It is as strict as node.ts and never
;; explains a defect: on anything node.ts would reject (or a key deeper than MAX_DEPTH) it
;; returns BAIL, and the caller continues in TypeScript from the same key, which then throws the
;; located FormatError or walks on.
;;
;; Node bytes live in 64 KiB windows as in reader.ts: window w holds file bytes
;; [max(16, w·64 KiB − 8 KiB), min(limit, (w+1)·64 KiB)), so a node lies wholly in the window of
;; its state byte. The caller copies windows into slots past SLOTS and records in TABLE, per
;; window, slot offset − window start (so a file address plus it is a memory address), or ABSENT.
;; A walk that needs an absent window returns NEED with the address in $need; the caller loads it
;; and calls again, and the walk goes on where it stopped. Windows may be evicted between calls:
;; every step looks its node's window up again.
;;
;; A search intersects the stream with an automaton held as a DFA table (fastWalk.ts, dfaRows.ts):
;; when $dfa is not 0, row r of the table at $dfa holds $classes i32 (state r × byte class → state;
;; DEAD −2 where nothing can match any more; UNBUILT −1 until the host's `step` builds it), byte b
;; at CLASSES is the class of byte b (bytes the automaton treats alike share one), and byte r at
;; FLAGS says whether state r matches. Every frame holds its state; a transition to DEAD is skipped
;; before its target is decoded, as the TypeScript walk does. The host answers FULL (−3) when the
;; table is at its cap: the stream bails there and TypeScript goes on with the automaton itself.
;;
;; Memory (set up by the caller, which grows it for slots):
;;   KEY     0        key bytes of the stream (MAX_DEPTH)
;;   KEYIN   16384    the key `get` looks up
;;   FRAMES  32768    one frame of FRAME bytes per depth of a stream
;;   FLAGS   0xe8000  one byte per DFA row: 1 where its state matches
;;   CLASSES 0xea000  the DFA's class of each byte value
;;   COMMON  0xfff00  the 63 byte values of the state-byte code (data segment)
;;   VALUE   0xfff40  the u64 value `get` found
;;   TABLE   0x100000 one i32 per window
;;   SLOTS   0x120000 window slots
(module
  (import "host" "emit" (func $emit (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "host" "step" (func $step (param i32 i32) (result i32)))
  (memory (export "memory") 19)

  ;; Results of `stream` and `get`.
  ;;   stream: DONE 0, PAUSED 1 (emit said stop), NEED 2, BAIL 3, YIELD 4 (step budget spent)
  ;;   get:    MISSING 0, FOUND 1, NEED 2, BAIL 3

  (global $version (mut i32) (i32.const 3))
  (global $limit (mut i32) (i32.const 0))
  (global $depth (export "depth") (mut i32) (i32.const -1))
  (global $need (export "need") (mut i32) (i32.const 0))
  ;; The DFA table of the running search, or 0 for a plain stream.
  (global $dfa (export "dfa") (mut i32) (i32.const 0))
  (global $classes (export "classes") (mut i32) (i32.const 256))
  ;; Where a stream bailed: the depth of the frame whose transition failed (-1: the root) and that
  ;; transition's input byte. The caller seeks to key[0..bailDepth) ++ [bailInput].
  (global $bailDepth (export "bailDepth") (mut i32) (i32.const -1))
  (global $bailInput (export "bailInput") (mut i32) (i32.const 0))
  ;; The transition `trans` decoded last.
  (global $tInput (mut i32) (i32.const 0))
  (global $tOut (mut i64) (i64.const 0))
  (global $tTarget (mut i32) (i32.const 0))

  ;; Frame fields.
  ;;   0 addr   4 start   8 inputs (AnyTrans: address of input 0; else the input byte)
  ;;   12 n     16 next (-1: the node's own key not yet emitted)   20 kind (0 OneTransNext,
  ;;   1 OneTrans, 2 AnyTrans, 3 EMPTY)   24 tsize   28 osize   32 final   36 the DFA state (a
  ;;   search)   40 acc (i64: the value of the path so far)   48 finalOut (i64)
  (global $FRAME i32 (i32.const 56))
  (global $FRAMES i32 (i32.const 32768))
  (global $MAX_DEPTH i32 (i32.const 16384))
  (global $KEYIN i32 (i32.const 16384))
  (global $COMMON i32 (i32.const 0xfff00))
  (global $VALUE i32 (i32.const 0xfff40))
  (global $TABLE i32 (i32.const 0x100000))
  (global $FLAGS i32 (i32.const 0xe8000))
  (global $CLASSES i32 (i32.const 0xea000))
  (global $ABSENT i32 (i32.const 0x80000000))

  (data (i32.const 0xfff00)
    "\74\65\2f\6f\61\73\72\69\70\63\6e\77\2e\68\6c\6d\2d\64\75\30\31\32\67\3d"
    "\3a\62\66\33\79\35\26\5f\34\76\39\36\37\38\6b\25\3f\78\43\44\41\53\46\49"
    "\42\45\6a\50\54\7a\52\4e\4d\2b\4c\4f\71\48\47")

  (func (export "init") (param $version i32) (param $limit i32)
    (global.set $version (local.get $version))
    (global.set $limit (local.get $limit))
    (global.set $depth (i32.const -1)))

  ;; A little-endian unsigned integer of `width` (0..8) bytes at memory address p. Reads 8 bytes
  ;; whatever the width: the caller keeps 8 bytes of memory after every slot.
  (func $uint (param $p i32) (param $width i32) (result i64)
    ;; Width 0 would shift by 64, which wasm takes as 0: select 0 instead (no branch to mispredict).
    (select
      (i64.and (i64.load (local.get $p))
               (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $width) (i32.const 3))))))
      (i64.const 0)
      (local.get $width)))

  ;; Memory address minus file address for the window of file address a, or ABSENT (and $need set).
  (func $window (param $a i32) (result i32)
    (local $t i32)
    (local.set $t (i32.load (i32.add (global.get $TABLE) (i32.shl (i32.shr_u (local.get $a) (i32.const 16)) (i32.const 2)))))
    (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (global.set $need (local.get $a))))
    (local.get $t))

  ;; Decodes the node at file address a into frame f. Returns 0, NEED (2) or BAIL (3).
  (func $decode (param $f i32) (param $a i32) (result i32)
    (local $t i32) (local $low i32) (local $state i32) (local $top i32) (local $p i32) (local $code i32)
    (local $n i32) (local $sizes i32) (local $ts i32) (local $os i32) (local $start i32) (local $fb i32)
    (i32.store (local.get $f) (local.get $a))
    (i64.store offset=48 (local.get $f) (i64.const 0))
    (if (i32.eqz (local.get $a))
      (then
        (i32.store offset=4 (local.get $f) (i32.const 0))
        (i32.store offset=12 (local.get $f) (i32.const 0))
        (i32.store offset=20 (local.get $f) (i32.const 3))
        (i32.store offset=32 (local.get $f) (i32.const 1))
        (return (i32.const 0))))
    (if (i32.or (i32.lt_s (local.get $a) (i32.const 16)) (i32.ge_s (local.get $a) (global.get $limit)))
      (then (return (i32.const 3))))
    (local.set $t (call $window (local.get $a)))
    (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (return (i32.const 2))))
    ;; The lowest address this window holds: node bytes below it are outside the node data.
    (local.set $low (i32.sub (i32.shl (i32.shr_u (local.get $a) (i32.const 16)) (i32.const 16)) (i32.const 8192)))
    (if (i32.lt_s (local.get $low) (i32.const 16)) (then (local.set $low (i32.const 16))))
    (local.set $state (i32.load8_u (i32.add (local.get $t) (local.get $a))))
    (local.set $top (i32.shr_u (local.get $state) (i32.const 6)))
    (local.set $p (i32.sub (local.get $a) (i32.const 1)))
    (if (i32.ge_u (local.get $top) (i32.const 2))
      (then
        (local.set $code (i32.and (local.get $state) (i32.const 63)))
        (if (local.get $code)
          (then (i32.store offset=8 (local.get $f) (i32.load8_u (i32.add (global.get $COMMON) (i32.sub (local.get $code) (i32.const 1))))))
          (else
            (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
            (i32.store offset=8 (local.get $f) (i32.load8_u (i32.add (local.get $t) (local.get $p))))
            (local.set $p (i32.sub (local.get $p) (i32.const 1)))))
        (i32.store offset=12 (local.get $f) (i32.const 1))
        (i32.store offset=32 (local.get $f) (i32.const 0))
        (if (i32.eq (local.get $top) (i32.const 3))
          (then
            (local.set $start (i32.add (local.get $p) (i32.const 1)))
            (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
            (i32.store offset=4 (local.get $f) (local.get $start))
            (i32.store offset=20 (local.get $f) (i32.const 0))
            (i32.store offset=24 (local.get $f) (i32.const 0))
            (i32.store offset=28 (local.get $f) (i32.const 0))
            (return (i32.const 0))))
        (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
        (local.set $sizes (i32.load8_u (i32.add (local.get $t) (local.get $p))))
        (local.set $ts (i32.shr_u (local.get $sizes) (i32.const 4)))
        (local.set $os (i32.and (local.get $sizes) (i32.const 15)))
        (if (i32.or (i32.gt_u (local.get $ts) (i32.const 8)) (i32.gt_u (local.get $os) (i32.const 8))) (then (return (i32.const 3))))
        (local.set $start (i32.sub (i32.sub (local.get $p) (local.get $ts)) (local.get $os)))
        (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
        (i32.store offset=4 (local.get $f) (local.get $start))
        (i32.store offset=20 (local.get $f) (i32.const 1))
        (i32.store offset=24 (local.get $f) (local.get $ts))
        (i32.store offset=28 (local.get $f) (local.get $os))
        (return (i32.const 0))))
    ;; AnyTrans
    (local.set $n (i32.and (local.get $state) (i32.const 63)))
    (if (i32.eqz (local.get $n))
      (then
        (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
        (local.set $n (i32.load8_u (i32.add (local.get $t) (local.get $p))))
        (local.set $p (i32.sub (local.get $p) (i32.const 1)))
        (if (i32.eq (local.get $n) (i32.const 1)) (then (local.set $n (i32.const 256))))))
    (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
    (local.set $sizes (i32.load8_u (i32.add (local.get $t) (local.get $p))))
    (local.set $ts (i32.shr_u (local.get $sizes) (i32.const 4)))
    (local.set $os (i32.and (local.get $sizes) (i32.const 15)))
    (if (i32.or (i32.gt_u (local.get $ts) (i32.const 8)) (i32.gt_u (local.get $os) (i32.const 8))) (then (return (i32.const 3))))
    (if (i32.and (i32.ne (local.get $n) (i32.const 0)) (i32.eqz (local.get $ts))) (then (return (i32.const 3))))
    (if (i32.and (i32.ge_u (global.get $version) (i32.const 2)) (i32.gt_u (local.get $n) (i32.const 32)))
      (then (local.set $p (i32.sub (local.get $p) (i32.const 256)))))
    (i32.store offset=8 (local.get $f) (i32.sub (local.get $p) (i32.const 1)))
    (local.set $fb (select (local.get $os) (i32.const 0) (i32.eq (local.get $top) (i32.const 1))))
    (local.set $start
      (i32.sub (local.get $p)
        (i32.add (i32.mul (local.get $n) (i32.add (i32.const 1) (i32.add (local.get $ts) (local.get $os)))) (local.get $fb))))
    (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
    (i32.store offset=4 (local.get $f) (local.get $start))
    (i32.store offset=12 (local.get $f) (local.get $n))
    (i32.store offset=20 (local.get $f) (i32.const 2))
    (i32.store offset=24 (local.get $f) (local.get $ts))
    (i32.store offset=28 (local.get $f) (local.get $os))
    (i32.store offset=32 (local.get $f) (i32.eq (local.get $top) (i32.const 1)))
    (if (local.get $fb)
      (then (i64.store offset=48 (local.get $f) (call $uint (i32.add (local.get $t) (local.get $start)) (local.get $fb)))))
    (i32.const 0))

  ;; Transition i of the node in frame f into $tInput, $tOut and $tTarget. Returns 0, NEED or BAIL.
  (func $trans (param $f i32) (param $i i32) (result i32)
    (local $t i32) (local $kind i32) (local $start i32) (local $ts i32) (local $os i32) (local $ins i32)
    (local $n i32) (local $delta i64)
    (local.set $kind (i32.load offset=20 (local.get $f)))
    (local.set $start (i32.load offset=4 (local.get $f)))
    (if (i32.eqz (local.get $kind))
      (then
        (global.set $tInput (i32.load offset=8 (local.get $f)))
        (global.set $tOut (i64.const 0))
        (global.set $tTarget (i32.sub (local.get $start) (i32.const 1)))
        (return (select (i32.const 3) (i32.const 0) (i32.lt_s (global.get $tTarget) (i32.const 16))))))
    (local.set $t (call $window (i32.load (local.get $f))))
    (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (return (i32.const 2))))
    (local.set $ts (i32.load offset=24 (local.get $f)))
    (local.set $os (i32.load offset=28 (local.get $f)))
    (if (i32.eq (local.get $kind) (i32.const 1))
      (then
        (global.set $tInput (i32.load offset=8 (local.get $f)))
        (global.set $tOut (call $uint (i32.add (local.get $t) (local.get $start)) (local.get $os)))
        (local.set $delta (call $uint (i32.add (i32.add (local.get $t) (local.get $start)) (local.get $os)) (local.get $ts))))
      (else
        ;; AnyTrans: inputs run downwards from $ins, then the deltas, then the outputs.
        (local.set $ins (i32.load offset=8 (local.get $f)))
        (local.set $n (i32.load offset=12 (local.get $f)))
        (global.set $tInput (i32.load8_u (i32.add (local.get $t) (i32.sub (local.get $ins) (local.get $i)))))
        (local.set $ins (i32.add (local.get $t) (i32.add (i32.sub (local.get $ins) (local.get $n)) (i32.const 1))))
        (local.set $delta (call $uint (i32.sub (local.get $ins) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $ts))) (local.get $ts)))
        (global.set $tOut
          (call $uint
            (i32.sub (i32.sub (local.get $ins) (i32.mul (local.get $n) (local.get $ts))) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $os)))
            (local.get $os)))))
    (if (i64.eqz (local.get $delta))
      (then
        (global.set $tTarget (i32.const 0))
        (return (i32.const 0))))
    ;; A delta past the start of the file, or a target inside the header: node.ts rejects both.
    (if (i64.gt_u (local.get $delta) (i64.extend_i32_u (local.get $start))) (then (return (i32.const 3))))
    (global.set $tTarget (i32.sub (local.get $start) (i32.wrap_i64 (local.get $delta))))
    (select (i32.const 3) (i32.const 0) (i32.lt_s (global.get $tTarget) (i32.const 16))))

;; The DFA state after state s reads byte b: from the table, or built by the host on first use.
  (func $next (param $s i32) (param $b i32) (result i32)
    (local $e i32) (local $t i32)
    (local.set $e
      (i32.add (global.get $dfa)
        (i32.shl (i32.add (i32.mul (local.get $s) (global.get $classes)) (i32.load8_u (i32.add (global.get $CLASSES) (local.get $b))))
          (i32.const 2))))
    (local.set $t (i32.load (local.get $e)))
    (if (i32.ne (local.get $t) (i32.const -1)) (then (return (local.get $t))))
    (local.set $t (call $step (local.get $s) (local.get $b)))
    (if (i32.ne (local.get $t) (i32.const -3)) (then (i32.store (local.get $e) (local.get $t))))
    (local.get $t))

  (func $frame (param $d i32) (result i32)
    (i32.add (global.get $FRAMES) (i32.mul (local.get $d) (global.get $FRAME))))

  ;; Starts a stream at the root (a file address, or 0 for EMPTY). Returns 0, NEED or BAIL.
  (func (export "streamStart") (param $root i32) (result i32)
    (local $r i32)
    (global.set $bailDepth (i32.const -1))
    (local.set $r (call $decode (call $frame (i32.const 0)) (local.get $root)))
    (if (local.get $r) (then (return (local.get $r))))
    (i32.store offset=16 (call $frame (i32.const 0)) (i32.const -1))
    (i64.store offset=40 (call $frame (i32.const 0)) (i64.const 0))
    (i32.store offset=36 (call $frame (i32.const 0)) (i32.const 0))
    (global.set $depth (i32.const 0))
    (i32.const 0))

  ;; Positions a stream on the `len` bytes at KEYIN (a prefix search, fastWalk.ts): frames along the
  ;; prefix from the root, each with its transitions spent, so the stream that follows walks the
  ;; subtree under the prefix and ends there. `resume` 1 goes on from $depth after a NEED, as `get`
  ;; does. Returns 0 (positioned, or $depth −1 when no key starts with the prefix), NEED or BAIL
  ;; ($bailDepth −1: the caller walks the search from the start in TypeScript, no key given yet).
  (func (export "seek") (param $root i32) (param $len i32) (param $resume i32) (result i32)
    (local $d i32) (local $f i32) (local $i i32) (local $n i32) (local $b i32) (local $r i32) (local $t i32)
    (local $ins i32) (local $c i32)
    (global.set $bailDepth (i32.const -1))
    (if (i32.eqz (local.get $resume)) (then (global.set $depth (i32.const -1))))
    (if (i32.lt_s (global.get $depth) (i32.const 0))
      (then
        (local.set $f (call $frame (i32.const 0)))
        (local.set $r (call $decode (local.get $f) (local.get $root)))
        (if (local.get $r) (then (return (local.get $r))))
        (i64.store offset=40 (local.get $f) (i64.const 0))
        (global.set $depth (i32.const 0))))
    (loop $down
      (local.set $d (global.get $depth))
      (local.set $f (call $frame (local.get $d)))
      (if (i32.ge_u (local.get $d) (local.get $len))
        (then
          (i32.store offset=16 (local.get $f) (i32.const -1))
          (return (i32.const 0))))
      (local.set $b (i32.load8_u (i32.add (global.get $KEYIN) (local.get $d))))
      (local.set $n (i32.load offset=12 (local.get $f)))
      ;; The transition on b: a one-transition node's input is in the frame; an AnyTrans node's
      ;; inputs are sorted, so the scan stops at the first one not below b.
      (local.set $i (i32.const 0))
      (local.set $c (i32.const -1))
      (if (i32.lt_u (i32.load offset=20 (local.get $f)) (i32.const 2))
        (then (local.set $c (i32.load offset=8 (local.get $f))))
        (else
          (if (i32.eq (i32.load offset=20 (local.get $f)) (i32.const 2))
            (then
              (local.set $t (call $window (i32.load (local.get $f))))
              (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (return (i32.const 2))))
              (local.set $ins (i32.add (local.get $t) (i32.load offset=8 (local.get $f))))
              (block $found
                (loop $scan
                  (br_if $found (i32.ge_s (local.get $i) (local.get $n)))
                  (local.set $c (i32.load8_u (i32.sub (local.get $ins) (local.get $i))))
                  (br_if $found (i32.ge_u (local.get $c) (local.get $b)))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (br $scan)))))))
      ;; No transition on b: no key starts with the prefix.
      (if (i32.or (i32.ge_s (local.get $i) (local.get $n)) (i32.ne (local.get $c) (local.get $b)))
        (then
          (global.set $depth (i32.const -1))
          (return (i32.const 0))))
      (local.set $r (call $trans (local.get $f) (local.get $i)))
      (if (local.get $r) (then (return (local.get $r))))
      (local.set $c (i32.add (local.get $f) (global.get $FRAME)))
      (local.set $r (call $decode (local.get $c) (global.get $tTarget)))
      (if (local.get $r) (then (return (local.get $r))))
      (i32.store8 (local.get $d) (local.get $b))
      (i64.store offset=40 (local.get $c) (i64.add (i64.load offset=40 (local.get $f)) (global.get $tOut)))
      (i32.store offset=16 (local.get $f) (i32.load offset=12 (local.get $f)))
      (global.set $depth (i32.add (local.get $d) (i32.const 1)))
      (br $down))
    (unreachable))

  ;; Walks on for at most `budget` steps; every key (of a search: every key its automaton matches)
  ;; reaches the host's emit(depth, value low, value high, final node address, its start, DFA
  ;; state), which returns 0 to pause. Keys come in byte order.
  (func (export "stream") (param $budget i32) (result i32)
    (local $d i32) (local $f i32) (local $i i32) (local $c i32) (local $r i32) (local $v i64) (local $s i32)
    (local $t i32) (local $ins i32)
    (block $done
      (loop $step
        (local.set $d (global.get $depth))
        (br_if $done (i32.lt_s (local.get $d) (i32.const 0)))
        (local.set $budget (i32.sub (local.get $budget) (i32.const 1)))
        (if (i32.lt_s (local.get $budget) (i32.const 0)) (then (return (i32.const 4))))
        (local.set $f (i32.add (global.get $FRAMES) (i32.mul (local.get $d) (global.get $FRAME))))
        (local.set $i (i32.load offset=16 (local.get $f)))
        (if (i32.lt_s (local.get $i) (i32.const 0))
          (then
            (i32.store offset=16 (local.get $f) (i32.const 0))
            (if (i32.and (i32.ne (i32.load offset=32 (local.get $f)) (i32.const 0))
                  (i32.or (i32.eqz (global.get $dfa))
                    (i32.load8_u (i32.add (global.get $FLAGS) (i32.load offset=36 (local.get $f))))))
              (then
                (local.set $v (i64.add (i64.load offset=40 (local.get $f)) (i64.load offset=48 (local.get $f))))
                (if (i32.eqz
                      (call $emit (local.get $d) (i32.wrap_i64 (local.get $v)) (i32.wrap_i64 (i64.shr_u (local.get $v) (i64.const 32)))
                        (i32.load (local.get $f)) (i32.load offset=4 (local.get $f)) (i32.load offset=36 (local.get $f))))
                  (then (return (i32.const 1))))))
            (br $step)))
        (if (i32.ge_s (local.get $i) (i32.load offset=12 (local.get $f)))
          (then
            (global.set $depth (i32.sub (local.get $d) (i32.const 1)))
            (br $step)))
        ;; A search skips the transitions of an AnyTrans node its automaton rules out by their input
        ;; alone, without decoding their targets and outputs.
        (if (i32.and (i32.ne (global.get $dfa) (i32.const 0)) (i32.eq (i32.load offset=20 (local.get $f)) (i32.const 2)))
          (then
            (local.set $t (call $window (i32.load (local.get $f))))
            (if (i32.eq (local.get $t) (global.get $ABSENT)) (then (return (i32.const 2))))
            (local.set $ins (i32.add (local.get $t) (i32.load offset=8 (local.get $f))))
            (block $live
              (loop $skip
                (br_if $live
                  (i32.ne (call $next (i32.load offset=36 (local.get $f)) (i32.load8_u (i32.sub (local.get $ins) (local.get $i)))) (i32.const -2)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br_if $skip (i32.lt_s (local.get $i) (i32.load offset=12 (local.get $f))))
                (i32.store offset=16 (local.get $f) (local.get $i))
                (br $step)))
            (i32.store offset=16 (local.get $f) (local.get $i))))
        (local.set $r (call $trans (local.get $f) (local.get $i)))
        (if (i32.eq (local.get $r) (i32.const 3))
          (then
            ;; $tInput is set before anything can fail in `trans`, except for a OneTrans node
            ;; whose input is in the frame; both are right here.
            (global.set $bailDepth (local.get $d))
            (global.set $bailInput (global.get $tInput))))
        (if (local.get $r) (then (return (local.get $r))))
        (if (i32.ge_s (i32.add (local.get $d) (i32.const 1)) (global.get $MAX_DEPTH))
          (then
            (global.set $bailDepth (local.get $d))
            (global.set $bailInput (global.get $tInput))
            (return (i32.const 3))))
        (if (global.get $dfa)
          (then
            (local.set $s (call $next (i32.load offset=36 (local.get $f)) (global.get $tInput)))
            (if (i32.eq (local.get $s) (i32.const -3))
              (then
                (global.set $bailDepth (local.get $d))
                (global.set $bailInput (global.get $tInput))
                (return (i32.const 3))))
            (if (i32.lt_s (local.get $s) (i32.const 0))
              (then
                (i32.store offset=16 (local.get $f) (i32.add (local.get $i) (i32.const 1)))
                (br $step)))))
        (local.set $c (i32.add (local.get $f) (global.get $FRAME)))
        (local.set $r (call $decode (local.get $c) (global.get $tTarget)))
        (if (i32.eq (local.get $r) (i32.const 3))
          (then
            (global.set $bailDepth (local.get $d))
            (global.set $bailInput (global.get $tInput))))
        (if (local.get $r) (then (return (local.get $r))))
        (i32.store8 (local.get $d) (global.get $tInput))
        (i64.store offset=40 (local.get $c) (i64.add (i64.load offset=40 (local.get $f)) (global.get $tOut)))
        (i32.store offset=16 (local.get $c) (i32.const -1))
        (i32.store offset=36 (local.get $c) (local.get $s))
        (i32.store offset=16 (local.get $f) (i32.add (local.get $i) (i32.const 1)))
        (global.set $depth (i32.add (local.get $d) (i32.const 1)))
        (br $step)))
    (i32.const 0))

;; Looks up the `len` bytes at KEYIN from the root (`resume` 0), or goes on with the lookup
  ;; that returned NEED (`resume` 1) once the caller has loaded the window: a lookup never starts
  ;; over, so it needs no more windows at once than one step does. Returns MISSING 0, FOUND 1
  ;; (the value at VALUE), NEED or BAIL.
  ;; Unlike `stream`, it keeps the node in locals instead of a frame: each step looks up one
  ;; window and reads only the node's header and the one transition the key takes, with the same
  ;; checks as $decode and $trans (so it bails wherever they would).
  (global $gDepth (mut i32) (i32.const 0))
  (global $gAcc (mut i64) (i64.const 0))
  (global $gAddr (mut i32) (i32.const 0))
  (func (export "get") (param $root i32) (param $len i32) (param $resume i32) (result i32)
    (local $a i32) (local $d i32) (local $acc i64) (local $t i32) (local $low i32) (local $state i32)
    (local $top i32) (local $p i32) (local $code i32) (local $input i32) (local $b i32) (local $sizes i32)
    (local $ts i32) (local $os i32) (local $start i32) (local $n i32) (local $fb i32) (local $ins i32)
    (local $i i32) (local $c i32) (local $out i64) (local $delta i64)
    (if (local.get $resume)
      (then
        (local.set $a (global.get $gAddr))
        (local.set $d (global.get $gDepth))
        (local.set $acc (global.get $gAcc)))
      (else (local.set $a (local.get $root))))
    (loop $node
      ;; EMPTY (address 0): final, no output, no transitions.
      (if (i32.eqz (local.get $a))
        (then
          (if (i32.lt_u (local.get $d) (local.get $len)) (then (return (i32.const 0))))
          (return (call $found (local.get $acc)))))
      (if (i32.or (i32.lt_s (local.get $a) (i32.const 16)) (i32.ge_s (local.get $a) (global.get $limit)))
        (then (return (i32.const 3))))
      (local.set $t (i32.load (i32.add (global.get $TABLE) (i32.shl (i32.shr_u (local.get $a) (i32.const 16)) (i32.const 2)))))
      (if (i32.eq (local.get $t) (global.get $ABSENT))
        (then
          (global.set $need (local.get $a))
          (global.set $gAddr (local.get $a))
          (global.set $gDepth (local.get $d))
          (global.set $gAcc (local.get $acc))
          (return (i32.const 2))))
      (local.set $low (i32.sub (i32.shl (i32.shr_u (local.get $a) (i32.const 16)) (i32.const 16)) (i32.const 8192)))
      (if (i32.lt_s (local.get $low) (i32.const 16)) (then (local.set $low (i32.const 16))))
      (local.set $state (i32.load8_u (i32.add (local.get $t) (local.get $a))))
      (local.set $top (i32.shr_u (local.get $state) (i32.const 6)))
      (local.set $p (i32.sub (local.get $a) (i32.const 1)))
      ;; The key's next byte, or -1 (which no input equals) at the end of the key.
      (local.set $b
        (select (i32.load8_u (i32.add (global.get $KEYIN) (local.get $d))) (i32.const -1) (i32.lt_u (local.get $d) (local.get $len))))
      (if (i32.ge_u (local.get $top) (i32.const 2))
        (then
          ;; One transition, never final: its input is a common byte or the byte below the state.
          (local.set $code (i32.and (local.get $state) (i32.const 63)))
          (if (local.get $code)
            (then (local.set $input (i32.load8_u (i32.add (global.get $COMMON) (i32.sub (local.get $code) (i32.const 1))))))
            (else
              (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
              (local.set $input (i32.load8_u (i32.add (local.get $t) (local.get $p))))
              (local.set $p (i32.sub (local.get $p) (i32.const 1)))))
          (if (i32.eq (local.get $top) (i32.const 3))
            (then
              ;; OneTransNext: no output; the target is the node that ends just below this one.
              (if (i32.lt_s (i32.add (local.get $p) (i32.const 1)) (local.get $low)) (then (return (i32.const 3))))
              (if (i32.ne (local.get $input) (local.get $b)) (then (return (i32.const 0))))
              (if (i32.lt_s (local.get $p) (i32.const 16)) (then (return (i32.const 3))))
              (local.set $a (local.get $p))
              (local.set $d (i32.add (local.get $d) (i32.const 1)))
              (br $node)))
          (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
          (local.set $sizes (i32.load8_u (i32.add (local.get $t) (local.get $p))))
          (local.set $ts (i32.shr_u (local.get $sizes) (i32.const 4)))
          (local.set $os (i32.and (local.get $sizes) (i32.const 15)))
          (if (i32.or (i32.gt_u (local.get $ts) (i32.const 8)) (i32.gt_u (local.get $os) (i32.const 8))) (then (return (i32.const 3))))
          (local.set $start (i32.sub (i32.sub (local.get $p) (local.get $ts)) (local.get $os)))
          (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
          (if (i32.ne (local.get $input) (local.get $b)) (then (return (i32.const 0))))
          ;; The output, then the delta, above the start (see $uint; inlined on this hot path).
          (local.set $out
            (select
              (i64.and (i64.load (i32.add (local.get $t) (local.get $start)))
                       (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $os) (i32.const 3))))))
              (i64.const 0) (local.get $os)))
          (local.set $delta
            (select
              (i64.and (i64.load (i32.add (i32.add (local.get $t) (local.get $start)) (local.get $os)))
                       (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $ts) (i32.const 3))))))
              (i64.const 0) (local.get $ts))))
        (else
          ;; AnyTrans: the count (in the state or the byte below), the sizes, for version 2+
          ;; and more than 32 transitions a 256-byte index, the inputs, the deltas, the outputs
          ;; and, for a final node, its output.
          (local.set $n (i32.and (local.get $state) (i32.const 63)))
          (if (i32.eqz (local.get $n))
            (then
              (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
              (local.set $n (i32.load8_u (i32.add (local.get $t) (local.get $p))))
              (local.set $p (i32.sub (local.get $p) (i32.const 1)))
              (if (i32.eq (local.get $n) (i32.const 1)) (then (local.set $n (i32.const 256))))))
          (if (i32.lt_s (local.get $p) (local.get $low)) (then (return (i32.const 3))))
          (local.set $sizes (i32.load8_u (i32.add (local.get $t) (local.get $p))))
          (local.set $ts (i32.shr_u (local.get $sizes) (i32.const 4)))
          (local.set $os (i32.and (local.get $sizes) (i32.const 15)))
          (if (i32.or (i32.gt_u (local.get $ts) (i32.const 8)) (i32.gt_u (local.get $os) (i32.const 8))) (then (return (i32.const 3))))
          (if (i32.and (i32.ne (local.get $n) (i32.const 0)) (i32.eqz (local.get $ts))) (then (return (i32.const 3))))
          (if (i32.and (i32.ge_u (global.get $version) (i32.const 2)) (i32.gt_u (local.get $n) (i32.const 32)))
            (then (local.set $p (i32.sub (local.get $p) (i32.const 256)))))
          (local.set $fb (select (local.get $os) (i32.const 0) (i32.eq (local.get $top) (i32.const 1))))
          (local.set $start
            (i32.sub (local.get $p)
              (i32.add (i32.mul (local.get $n) (i32.add (i32.const 1) (i32.add (local.get $ts) (local.get $os)))) (local.get $fb))))
          (if (i32.lt_s (local.get $start) (local.get $low)) (then (return (i32.const 3))))
          (if (i32.ge_u (local.get $d) (local.get $len))
            (then
              (if (local.get $fb)
                (then (return (call $found (i64.add (local.get $acc) (call $uint (i32.add (local.get $t) (local.get $start)) (local.get $fb)))))))
              (if (i32.eq (local.get $top) (i32.const 1)) (then (return (call $found (local.get $acc)))))
              (return (i32.const 0))))
          ;; Input i is at memory address $ins − i.
          (local.set $ins (i32.add (local.get $t) (i32.sub (local.get $p) (i32.const 1))))
          (if (i32.and (i32.ge_u (global.get $version) (i32.const 2)) (i32.gt_u (local.get $n) (i32.const 32)))
            (then
              ;; The index lies just above the inputs.
              (local.set $i (i32.load8_u (i32.add (i32.add (local.get $ins) (i32.const 1)) (local.get $b))))
              (if (i32.eqz
                    (i32.and (i32.lt_u (local.get $i) (local.get $n))
                             (i32.eq (i32.load8_u (i32.sub (local.get $ins) (local.get $i))) (local.get $b))))
                (then (return (i32.const 0)))))
            (else
              ;; Inputs are sorted: stop at the first one above b.
              (local.set $i (i32.const 0))
              (block $found
                (loop $scan
                  (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (i32.const 0))))
                  (local.set $c (i32.load8_u (i32.sub (local.get $ins) (local.get $i))))
                  (br_if $found (i32.eq (local.get $c) (local.get $b)))
                  (if (i32.gt_u (local.get $c) (local.get $b)) (then (return (i32.const 0))))
                  (local.set $i (i32.add (local.get $i) (i32.const 1)))
                  (br $scan)))))
          ;; Deltas run down from just below input n − 1, outputs below the deltas.
          (local.set $ins (i32.add (i32.sub (local.get $ins) (local.get $n)) (i32.const 1)))
          (local.set $delta
            (select
              (i64.and (i64.load (i32.sub (local.get $ins) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $ts))))
                       (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $ts) (i32.const 3))))))
              (i64.const 0) (local.get $ts)))
          (local.set $out
            (select
              (i64.and
                (i64.load (i32.sub (i32.sub (local.get $ins) (i32.mul (local.get $n) (local.get $ts))) (i32.mul (i32.add (local.get $i) (i32.const 1)) (local.get $os))))
                (i64.shr_u (i64.const -1) (i64.extend_i32_u (i32.sub (i32.const 64) (i32.shl (local.get $os) (i32.const 3))))))
              (i64.const 0) (local.get $os)))))
      ;; A delta of 0 is EMPTY; one past the start of the file or into the header is damage.
      (if (i64.eqz (local.get $delta))
        (then (local.set $a (i32.const 0)))
        (else
          (if (i64.gt_u (local.get $delta) (i64.extend_i32_u (local.get $start))) (then (return (i32.const 3))))
          (local.set $a (i32.sub (local.get $start) (i32.wrap_i64 (local.get $delta))))
          (if (i32.lt_s (local.get $a) (i32.const 16)) (then (return (i32.const 3))))))
      (local.set $acc (i64.add (local.get $acc) (local.get $out)))
      (local.set $d (i32.add (local.get $d) (i32.const 1)))
      (br $node))
    (unreachable))

  (func $found (param $acc i64) (result i32)
    (i64.store (global.get $VALUE) (local.get $acc))
    (i32.const 1))
)
