import { renderToStaticMarkup } from 'react-dom/server';

import { POLICIES } from '@/components/policies';
import { ConfigError, loadConfig } from '@/lib/config/server';

const Statement = POLICIES['2257'].Component;

describe('the 2257 statement’s custodian of records (RECORDS_CUSTODIAN_NAME, RECORDS_CUSTODIAN_ADDRESS)', () => {
  it('names the configured custodian and street address, escaped', () => {
    const { operator } = loadConfig({
      RECORDS_CUSTODIAN_NAME: 'Alex Records <Custodian>',
      RECORDS_CUSTODIAN_ADDRESS: '1 Main Street; Springfield, IL 62701',
    });
    const html = renderToStaticMarkup(<Statement operator={operator} />);
    expect(operator.recordsCustodianConfigured).toBe(true);
    expect(html).toContain('Alex Records &lt;Custodian&gt;');
    expect(html).toContain('1 Main Street');
    expect(html).toContain('Springfield, IL 62701');
    expect(html).not.toContain('has not yet named');
  });

  it('says plainly when no custodian is named, with the variables to set', () => {
    const { operator } = loadConfig({ OPERATOR_EMAIL: 'hello@example.org' });
    const html = renderToStaticMarkup(<Statement operator={operator} />);
    expect(operator.recordsCustodianConfigured).toBe(false);
    expect(html).toContain('The operator of this site has not yet named its custodian of records');
    expect(html).toContain('set RECORDS_CUSTODIAN_NAME');
    expect(html).toContain('set RECORDS_CUSTODIAN_ADDRESS');
  });

  it('counts a custodian as named only when both values are set, in every environment (production starts with a warning)', () => {
    expect(loadConfig({ RECORDS_CUSTODIAN_NAME: 'Alex' }).operator.recordsCustodianConfigured).toBe(false);
    expect(() => loadConfig({ NODE_ENV: 'production' })).not.toThrow();
  });

  it('refuses a P.O. box: 28 C.F.R. 75.6 asks for a street address', () => {
    expect(() => loadConfig({ RECORDS_CUSTODIAN_ADDRESS: 'P.O. Box 12, Springfield' })).toThrow(ConfigError);
    expect(() => loadConfig({ RECORDS_CUSTODIAN_ADDRESS: 'PO Box 12' })).toThrow(/street address/);
    expect(() => loadConfig({ RECORDS_CUSTODIAN_ADDRESS: '12 Boxwood Lane' })).not.toThrow();
  });
});
