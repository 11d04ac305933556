// Lints OpenAPI documents with Spectral's `spectral:oas` ruleset and Redocly's `recommended` one.
// An ES module (Redocly's openapi-core is one), run by the test in a child process: reads
// `{ name: document }` on stdin and prints every finding as JSON, `[]` when there is none.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import parsers from '@stoplight/spectral-parsers';
import rulesets from '@stoplight/spectral-rulesets';

const SPECTRAL_SEVERITY = ['error', 'warn', 'info', 'hint'];

let input = '';
for await (const chunk of process.stdin) input += chunk;
const documents = JSON.parse(input);

const spectral = new spectralCore.Spectral();
spectral.setRuleset(rulesets.oas);
const redocly = await createConfig({ extends: ['recommended'] });

const findings = [];
for (const [name, document] of Object.entries(documents)) {
  const source = JSON.stringify(document, null, 2);
  for (const result of await spectral.run(new spectralCore.Document(source, parsers.Json, name))) {
    findings.push({ tool: 'spectral', document: name, rule: result.code, severity: SPECTRAL_SEVERITY[result.severity], path: result.path.join('.'), message: result.message });
  }
  for (const problem of await lintFromString({ source, absoluteRef: `/${name}`, config: redocly })) {
    findings.push({ tool: 'redocly', document: name, rule: problem.ruleId, severity: problem.severity, path: problem.location.map((l) => l.pointer).join(' '), message: problem.message });
  }
}
process.stdout.write(JSON.stringify(findings));
