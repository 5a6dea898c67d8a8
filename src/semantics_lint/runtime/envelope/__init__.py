"""The wire envelope, the runtime's lowest layer: what a refusal is (``refusal``), the
rule of each part alone (``parts``, with ``faults`` and ``data_parts``), the whole
envelope's rule set, recognition and projection (``rules``), the one JSON encoder
(``json_text``) and the declarations and envelopes as types (``types``).

It imports nothing of the runtime above it (the mints, the gate, the claims check,
serving)."""
