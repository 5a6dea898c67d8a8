"""The declaration doors, on the envelope layer: the coverage lists every door
normalizes (``items``), ``absent`` and ``coverage`` (``absent_coverage``),
``described_result`` (``described``), ``define_tool`` (``tools``) and the mints'
verdict on literal values, for the linter (``judge``)."""
