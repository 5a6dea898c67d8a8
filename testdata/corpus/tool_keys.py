"""Tool definitions with their keys spelled as Python writes them, and data parts
given as module-level names whose values (or rows) the runtime refuses."""

from semantics_lint.runtime import absent, define_tool, described_result

ROWS = "rows"
NO_ROWS = []
HOSTS = [{"entity": "host-01"}]
SPARE_HOSTS = [{"entity": "host-07"}, {"hostname": "host-08"}]


def vm_backup_status(vm, export):
    if export is None:
        return absent(what=f"backup runs for {vm}", checked=["every job in the export"])
    return described_result(
        facts=[{"entity": vm, "backed_up": True}],
        provenance={"measuredAt": export.at, "source": "backup export"},
        coverage={"checked": ["every job in the export"]},
    )


def host_list(export):
    return described_result(
        facts=ROWS,  # expect: SEM100
        provenance={"measuredAt": export.at, "source": "cmdb"},
        render={"default": "table"},
    )


def retired_hosts(export):
    return described_result(
        facts=NO_ROWS,  # expect: SEM105
        provenance={"measuredAt": export.at, "source": "cmdb"},
    )


def known_hosts(export):
    return described_result(facts=HOSTS, provenance={"measuredAt": export.at, "source": "cmdb"})


def spare_hosts(export):
    return described_result(
        facts=SPARE_HOSTS,  # expect: SEM106
        provenance={"measuredAt": export.at, "source": "cmdb"},
    )


backup = define_tool(
    name="vm_backup_status",
    result_class="triage",  # expect: SEM102
    execute=vm_backup_status,
)
hosts = define_tool({"name": "host_list", "execute": host_list, "input_schema": {}})  # expect: SEM102
retired = define_tool(name="retired_hosts", excute=retired_hosts)  # expect: SEM101
known = define_tool(name=" ", execute=known_hosts)  # expect: SEM100
spare = define_tool(name="spare_hosts", execute=spare_hosts)
