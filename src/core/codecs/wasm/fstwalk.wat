;; The two hot walks of an fst (spec fst.md §3–§5) inside WebAssembly, for
;; src/core/formats/fst/fastWalk.ts: streaming every key in order, and looking one key up.
;; Compiled to fstwalk.wasm by `node src/core/codecs/wasm/assemble.mjs` (wabt), the parts in
;; fstwalk/ joined in where an `;; @include` line names them; a unit test checks
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

  ;; @include fstwalk/node.wat

  ;; @include fstwalk/stream.wat

  ;; @include fstwalk/get.wat
)
