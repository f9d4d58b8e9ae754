#include "io/bom_figures.hpp"

#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "io/number_format.hpp"
#include "io/text_table.hpp"

namespace rackscale::io {

namespace tco = models::tco;

namespace {

// One line of the bill, whatever its kind.
struct Line {
  std::string item, model;
  std::uint64_t count = 0, copper = 0, optical = 0, transceivers = 0;
  double unit_usd = 0, usd = 0, idle_watts = 0, active_watts = 0;
};

std::vector<Line> lines_of(const tco::BillOfMaterials& bom) {
  std::vector<Line> lines;
  if (bom.nics) {
    const tco::NicLine& n = *bom.nics;
    const double count = static_cast<double>(n.count);
    lines.push_back({"NICs", n.model, n.count, 0, 0, 0, n.unit_usd, count * n.unit_usd, count * n.idle_watts,
                     count * n.active_watts});
  }
  for (const tco::SwitchLine& s : bom.switches) {
    // NVSwitches are priced inside the servers: no price of their own here.
    const double unit = s.in_server ? 0.0 : s.unit_usd;
    lines.push_back({s.tier + " switches", s.model, s.count, 0, 0, 0, unit, static_cast<double>(s.count) * unit,
                     s.idle_watts, s.active_watts});
  }
  for (const tco::CableLine& c : bom.cables) {
    lines.push_back({c.tier + " cables", c.optics, c.cables(), c.copper, c.optical, c.transceivers(), 0, c.usd(),
                     c.optics_watts(), c.optics_watts()});
  }
  return lines;
}

std::uint64_t scale_out_switches(const tco::BillOfMaterials& bom) {
  std::uint64_t n = 0;
  for (const tco::SwitchLine& s : bom.switches)
    if (!s.in_server) n += s.count;
  return n;
}

std::uint64_t cables(const tco::BillOfMaterials& bom) {
  std::uint64_t n = 0;
  for (const tco::CableLine& c : bom.cables) n += c.cables();
  return n;
}

double network_idle_watts(const tco::BillOfMaterials& bom) {
  double w = bom.nics ? static_cast<double>(bom.nics->count) * bom.nics->idle_watts : 0.0;
  for (const tco::SwitchLine& s : bom.switches)
    if (!s.in_server) w += s.idle_watts;
  return w + bom.optics_watts();
}

}  // namespace

Figures bom_figures(const tco::BillOfMaterials& bom) {
  return {{"accelerators", bom.accelerators},
          {"hosts", bom.hosts},
          {"compute_racks", bom.compute_racks},
          {"network_racks", bom.network_racks},
          {"nics", bom.nics ? bom.nics->count : std::uint64_t{0}},
          {"scale_out_switches", scale_out_switches(bom)},
          {"cables", cables(bom)},
          {"transceivers", bom.transceivers()},
          {"nics_usd", bom.nics_usd()},
          {"switches_usd", bom.switches_usd()},
          {"cables_usd", bom.cables_usd()},
          {"network_usd", bom.network_usd()},
          {"network_idle_power_W", network_idle_watts(bom)},
          {"network_active_power_W", bom.network_active_watts()},
          {"optics_power_W", bom.optics_watts()},
          {"notes", bom.notes}};
}

Table bom_table(const tco::BillOfMaterials& bom) {
  std::vector<std::string> item, model;
  std::vector<std::uint64_t> count, copper, optical, transceivers;
  std::vector<double> unit_usd, usd, idle, active;
  for (const Line& l : lines_of(bom)) {
    item.push_back(l.item);
    model.push_back(l.model);
    count.push_back(l.count);
    copper.push_back(l.copper);
    optical.push_back(l.optical);
    transceivers.push_back(l.transceivers);
    unit_usd.push_back(l.unit_usd);
    usd.push_back(l.usd);
    idle.push_back(l.idle_watts);
    active.push_back(l.active_watts);
  }
  return {{"item", "", "NICs, switches of a tier, or cables of a tier", std::move(item)},
          {"model", "", "the preset (cables: the optics preset of their port speed; empty when none)", std::move(model)},
          {"count", "", "units (cables: copper and optical)", std::move(count)},
          {"copper", "", "cables with both ends in one rack (passive copper)", std::move(copper)},
          {"optical", "", "cables between racks (a transceiver at each end)", std::move(optical)},
          {"transceivers", "", "optical modules, two per optical cable", std::move(transceivers)},
          {"unit_usd", "USD", "price per unit (0 for cables: see usd; NVSwitches: inside the servers)",
           std::move(unit_usd)},
          {"usd", "USD", "the line's purchase price", std::move(usd)},
          {"idle_W", "W", "the line's power with no traffic (cables: their transceivers)", std::move(idle)},
          {"active_W", "W", "the line's power with every cabled port at full rate", std::move(active)}};
}

nlohmann::ordered_json bom_json(const tco::BillOfMaterials& bom) {
  nlohmann::ordered_json j = figures_json(bom_figures(bom));
  j["items"] = table_json(bom_table(bom));
  return j;
}

std::string bom_text(const tco::BillOfMaterials& bom) {
  using A = TextTable::Align;
  TextTable table({"bill of materials", "model", "count", "copper", "optical", "transceivers", "price", "idle",
                   "full load"},
                  {A::left, A::left, A::right, A::right, A::right, A::right, A::right, A::right, A::right});
  const auto watts = [](double w) { return with_prefix(w, Prefixes::si, "W"); };
  for (const Line& l : lines_of(bom)) {
    const bool cable = l.item.ends_with("cables");
    table.add_row({l.item, l.model.empty() ? "-" : l.model, with_commas(l.count), cable ? with_commas(l.copper) : "",
                   cable ? with_commas(l.optical) : "", cable ? with_commas(l.transceivers) : "", format_usd(l.usd),
                   watts(l.idle_watts), watts(l.active_watts)});
  }
  std::string out = table.render();
  out += fmt::format("network: {} ({} NICs, {} switches, {} cables and optics); {} idle, {} at full load, of which "
                     "optics {}; {} compute and {} network racks\n",
                     format_usd(bom.network_usd()), format_usd(bom.nics_usd()), format_usd(bom.switches_usd()),
                     format_usd(bom.cables_usd()), watts(network_idle_watts(bom)), watts(bom.network_active_watts()),
                     watts(bom.optics_watts()), with_commas(bom.compute_racks), with_commas(bom.network_racks));
  for (const std::string& note : bom.notes) out += "note: " + note + "\n";
  return out;
}

void write_bom(hdf5::Group& root, const tco::BillOfMaterials& bom) {
  hdf5::Group g = root.create_group("bom");
  g.set_attribute("description", "the bill of materials of the cluster's network: NICs, switches by tier, cables by "
                                 "tier (copper inside a rack, optical between racks), their price and power "
                                 "(docs/tco.md, \"Bill of materials\")");
  write_figures(g, bom_figures(bom));
  hdf5::Group items = g.create_group("items");
  items.set_attribute("description", "one row per line of the bill");
  write_table(items, bom_table(bom));
}

}  // namespace rackscale::io
