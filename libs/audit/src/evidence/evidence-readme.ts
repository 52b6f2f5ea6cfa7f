/** `README.md` of an evidence bundle: what it holds and how to check it without the gateway. */
export const EVIDENCE_README = `# Toolgate audit evidence

This bundle holds one tenant's audit events and what is needed to check, with no database, no
gateway and no secret, that none of them was edited, removed, added or reordered since the
gateway signed the checkpoints covering them (ADR 030).

| file | what |
| --- | --- |
| \`events.jsonl\` | one event per line, oldest first: every field the chain hashes, \`id\`, \`instanceId\`, \`prevHash\`, \`hash\`, and \`publicDigest\` (the running digest of its stretch) |
| \`checkpoints.json\` | the signed checkpoints whose stretches cover the events |
| \`public-keys.json\` | the keys the checkpoints and the manifest are signed with: Ed25519, and SM2 where the gateway signs with the national standards (ADR 040) |
| \`manifest.json\` | tenant, range, first and last seq, event count, SHA-256 of every other file |
| \`manifest.sig\` | signature (base64) over \`manifest.json\` as it is, by the key \`keyId\` (Ed25519, or SM2 DER) |

## With the verifier

    npx toolgate-verify <bundle.zip | directory> [--public-key key.pem]... [--json]

Exit codes: 0 verified; 1 tampered or inconsistent (the first tampered event is named by seq and
id); 2 not a readable bundle; 3 nothing wrong found, but some events are covered by no checkpoint
with a public digest (signed before v1.8), which only the gateway can check.

Pass \`--public-key\` with the key published by the gateway (\`GET /v1/audit/public-keys\`) or one
you pinned earlier: without it the bundle's own \`public-keys.json\` is used, which proves only
that the bundle agrees with itself. Repeat it when the chain was signed under both suites (an
Ed25519 key and an SM2 key); each key is recognised from the key itself.

## By hand

1. \`manifest.sig\` verifies over \`manifest.json\` with the key \`keyId\`; each file's SHA-256 is the
   one listed.
2. Each checkpoint's signature verifies over the canonical JSON (keys sorted, no whitespace) of
   \`{v: 2, tenantId, seq, headHash, signedAt, fromSeq, fromHash, publicDigest}\` (\`{v: 1, tenantId,
   seq, headHash, signedAt}\` for checkpoints without a public digest). A checkpoint with
   \`algorithm: "sm2-sm3"\` signs \`{v: 3, algorithm, tenantId, seq, headHash, signedAt, fromSeq,
   fromHash, publicDigest}\` with SM2 (GB/T 32918.2: \`e = SM3(Z_A ‖ M)\`, the default ID
   \`1234567812345678\`; the signature is DER \`(r, s)\`), and its digest below uses SM3 instead of
   SHA-256 (GmSSL: \`gmssl sm2verify\`; OpenSSL 3 only with that ID set, e.g. \`-pkeyopt
   distid:1234567812345678\`).
3. For each checkpoint with a public digest: \`D = fromHash\`; for each event with seq
   \`fromSeq+1 … seq\`, in order, \`D = SHA-256(D + "\\n" + prevHash + "\\n" + hash + "\\n" + canonical)\`
   (SM3 for an \`sm2-sm3\` checkpoint),
   where \`canonical\` is the canonical JSON of the event's fields without \`id\`, \`instanceId\`,
   \`prevHash\`, \`hash\` and \`publicDigest\`. The last \`D\` must equal \`publicDigest\`, and the
   event at \`seq\` must have the hash \`headHash\`.
4. Seqs run without a gap from the manifest's \`firstSeq\` to \`lastSeq\`, each event's \`prevHash\`
   is the \`hash\` of the one before it, and consecutive checkpoints meet (\`fromSeq\`/\`fromHash\`
   of one are \`seq\`/\`headHash\` of the one before).

The links themselves (\`hash\`) are HMAC-SHA256 (or HMAC-SM3) under the gateway's chain key: only the gateway can
recompute them (\`GET /v1/audit/verify\`). They keep anyone without that key from extending the
chain so that the next checkpoint would sign it.
`;
