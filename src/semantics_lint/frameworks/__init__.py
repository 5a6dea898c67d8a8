"""Adapters that serve tools to agent frameworks, each an optional extra.

Each adapter takes a plain function or a ``define_tool`` tool (sync or async), keeps
its name, docstring and parameters, and serves what it returns through the runtime's
one seam (:mod:`semantics_lint.runtime.serving.message`): the model reads ``tool_message(value)
.text``, the record keeps the whole value, a refusal raised inside the tool is the
call's error result. Every call feeds the current ``run_record()`` and the pytest
plugin. The adapters share :mod:`semantics_lint.frameworks._common`; each module here
imports its framework, so import the one you use:

* :mod:`semantics_lint.frameworks.mcp` (``pip install 'semantics-lint[mcp]'``):
  ``served``, for the official MCP SDK (1.x ``FastMCP``, 2.x ``MCPServer``) and ``fastmcp``;
* :mod:`semantics_lint.frameworks.openai_agents` (``[openai-agents]``): ``function_tool``;
* :mod:`semantics_lint.frameworks.langchain` (``[langchain]``): ``tool``;
* :mod:`semantics_lint.frameworks.pydantic_ai` (``[pydantic-ai]``): ``served``.

See ``docs/frameworks.md`` for an example of each.
"""
