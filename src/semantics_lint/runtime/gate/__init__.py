"""The ``check-semantics`` gate, on the envelope layer: the catalogs of sample results
(``catalog``), the judging (``check``), the report as text (``report_text``) and the
command's core with its IO injected (``command``)."""
