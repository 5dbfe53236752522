import { PageTextBudget } from './page-text-budget';

describe('PageTextBudget', () => {
  it('keeps whole pages while they fit, cuts the page that crosses the budget, empties the rest', () => {
    const budget = new PageTextBudget(5);
    budget.add(1, 'abc');
    budget.add(2, 'defg');
    budget.add(3, 'hi');
    expect(budget.pages).toEqual([
      { page: 1, characters: 3, text: 'abc', truncated: false },
      { page: 2, characters: 4, text: 'de', truncated: true },
      { page: 3, characters: 2, text: '', truncated: true },
    ]);
    expect(budget.characters).toBe(9);
    expect(budget.truncated).toBe(true);
  });

  it('counts code points and never cuts inside a surrogate pair', () => {
    const budget = new PageTextBudget(3);
    budget.add(1, '😀😀😀😀');
    expect(budget.pages[0]).toEqual({ page: 1, characters: 4, text: '😀😀😀', truncated: true });
    expect(budget.characters).toBe(4);
  });

  it('an empty page is never truncated, even past the budget', () => {
    const budget = new PageTextBudget(0);
    budget.add(1, '');
    expect(budget.pages[0]?.truncated).toBe(false);
    expect(budget.truncated).toBe(false);
  });
});
