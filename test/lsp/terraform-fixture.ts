// The Terraform file the language server's tests read: a cloudflare_ruleset whose rules write their
// expressions each way Terraform allows (quoted with escapes, a `<<-` heredoc, `${…}`, a reference, one
// half typed). test/lsp/terraform.test.ts gives it to the built server as it is; hcl-host.test.ts reads
// it in this process with more rules (a rule with no expression, a plain heredoc) and a legacy ruleset.

/** The ruleset's file, with `moreRules` (HCL `rules { … }` blocks) after its own. */
export function rulesetTf(moreRules = ''): string {
  return `resource "cloudflare_ruleset" "mt" {
  account_id = var.account_id
  name       = "magic transit"
  kind       = "root"
  phase      = "magic_transit"

  rules {
    action     = "block"
    expression = "ip.proto == \\"tcp\\" and tcp.dport == 22"
    ref        = "ssh"
  }
  rules {
    action     = "block"
    expression = <<-EOT
      tcp.dstport in { 23 2323 }
        and ip.src in { 10.0.0.0/33 }
    EOT
  }
  rules {
    action     = "skip"
    expression = "tcp.dstport == \${var.port}"
  }
  rules {
    action     = "log"
    expression = local.icmp
  }
  rules {
    action     = "block"
    expression = "ip.proto == "
  }
${moreRules}}
`;
}
