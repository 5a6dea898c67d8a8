from semantics_lint.runtime import absent, described_result

SUBJECT = ""


def find_vm(name, vms):
    match = [v for v in vms if v.name == name]
    if not match:
        return absent(what=f"{SUBJECT}", checked=["vCenter"])  # expect: SEM404
    return described_result(facts=[{"entity": name}], provenance={"measuredAt": vms.at, "source": "vcenter"})
