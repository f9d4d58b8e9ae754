#include "io/tco_results.hpp"

#include "io/tco_figures.hpp"

namespace rackscale::io {

using hdf5::Group;

void write_tco(Group& root, const models::tco::TcoReport& r) {
  Group g = root.create_group("tco");
  g.set_attribute("description", "cost, energy and carbon of the run: purchase cost, the share of it the run "
                                 "consumed, operating cost and carbon, per iteration, per million tokens and for "
                                 "the whole training run (docs/tco.md)");
  write_figures(g, tco_figures(r));
  for (const TcoScope& scope : kTcoScopes) {
    Group s = g.create_group(scope.name);
    s.set_attribute("description", scope.description);
    write_figures(s, totals_figures(r.*scope.totals, r.embodied_counted));
  }
  Group b = g.create_group("breakdown");
  b.set_attribute("description", "the whole run's cost and carbon by item; the rows add up to whole_run's cost_usd "
                                 "and carbon_kgco2e (rows whose carbon is not counted hold NaN)");
  write_table(b, tco_breakdown_table(r));
}

}  // namespace rackscale::io
