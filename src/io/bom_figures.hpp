#pragma once
// The bill of materials of a cluster's network (models/tco/bill_of_materials.hpp) under one name per
// figure, as `rackscale validate --bom` prints it (text and `--json`'s `bom`) and as a training run's
// results file stores it (`/bom`; docs/output.md).
#include <string>

#include <nlohmann/json.hpp>

#include "io/figures.hpp"
#include "models/tco/bill_of_materials.hpp"

namespace rackscale::io {

// Totals: accelerators, hosts, racks, NICs, switches, cables, transceivers; the network's price by part
// and its power (idle, full load, optics).
[[nodiscard]] Figures bom_figures(const models::tco::BillOfMaterials& bom);
// One row per line: NICs, each switch tier, each cable tier; item, model, count, copper, optical,
// transceivers, unit_usd, usd, idle_W, active_W.
[[nodiscard]] Table bom_table(const models::tco::BillOfMaterials& bom);
// bom_figures, then `items` (bom_table) and `notes`.
[[nodiscard]] nlohmann::ordered_json bom_json(const models::tco::BillOfMaterials& bom);
// The lines as a text table and the totals under it.
[[nodiscard]] std::string bom_text(const models::tco::BillOfMaterials& bom);

// Collective: creates `root`/bom with bom_figures as attributes and `items` as a table.
void write_bom(hdf5::Group& root, const models::tco::BillOfMaterials& bom);

}  // namespace rackscale::io
