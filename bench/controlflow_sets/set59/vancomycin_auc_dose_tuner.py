"""Clinical pharmacy: AUC-guided vancomycin empiric dosing.

Population pharmacokinetics (one compartment): clearance from the
Cockcroft-Gault creatinine clearance with a small learned Bayesian-prior
correction, volume from body weight.  Starting from a weight-based dose and
an interval chosen from renal function, the dose is stepped in 250 mg
increments until the steady-state AUC24 lands in 400-600 mg*h/L; if the dose
hits its bounds the interval is changed instead.  Patients on intermittent
haemodialysis get a loading dose and post-dialysis redosing instead.
"""
import torch
import torch.nn as nn

INTERVALS_H = [8.0, 12.0, 24.0, 48.0]


class VancomycinDosing(nn.Module):
    def __init__(self):
        super().__init__()
        self.auc_low, self.auc_high = 400.0, 600.0
        self.dose_step = 250.0
        self.min_dose, self.max_dose = 750.0, 2000.0
        self.max_iter = 30
        self.prior = nn.Linear(4, 1)

    def crcl_ml_min(self, age, weight, scr, female):
        if age > 65.0 and scr < 0.8:
            scr = torch.full_like(scr, 0.8)  # floor for low muscle mass in the elderly
        crcl = (140.0 - age) * weight / (72.0 * scr)
        return crcl * 0.85 if female > 0.5 else crcl

    def interval_index(self, crcl):
        # start at q12h at best; q8h is only reached by shortening the interval
        if crcl >= 50.0:
            return 1
        elif crcl >= 15.0:
            return 2
        return 3

    def round_dose(self, mg):
        return torch.clamp(torch.round(mg / self.dose_step) * self.dose_step,
                           self.min_dose, self.max_dose)

    def forward(self, patients):
        doses, taus, aucs = [], [], []
        for b in range(patients.shape[0]):
            age, weight, scr, female, dialysis = patients[b].unbind(0)
            if dialysis > 0.5:
                # 25 mg/kg load, then 500-1000 mg after each session guided by levels
                doses.append(torch.clamp(torch.round(25.0 * weight / 250.0) * 250.0, max=3000.0))
                taus.append(torch.tensor(0.0))
                aucs.append(torch.tensor(0.0))
                continue
            crcl = self.crcl_ml_min(age, weight, scr, female)
            feats = torch.stack([age / 100.0, weight / 100.0, scr, crcl / 100.0])
            cl_l_h = 0.06 * torch.clamp(crcl, 5.0, 300.0) * torch.exp(
                0.1 * torch.tanh(self.prior(feats))).squeeze(0)
            t_idx = self.interval_index(crcl)
            dose = self.round_dose(15.0 * weight)
            auc = dose * (24.0 / INTERVALS_H[t_idx]) / cl_l_h
            it = 0
            while (auc < self.auc_low or auc > self.auc_high) and it < self.max_iter:
                it += 1
                if auc > self.auc_high:
                    if dose <= self.min_dose:
                        if t_idx == len(INTERVALS_H) - 1:
                            break  # cannot go lower: dose by levels
                        t_idx += 1
                    else:
                        dose = dose - self.dose_step
                else:
                    if dose >= self.max_dose:
                        if t_idx == 0:
                            break  # maximum regimen: consult ID
                        t_idx -= 1
                    else:
                        dose = dose + self.dose_step
                auc = dose * (24.0 / INTERVALS_H[t_idx]) / cl_l_h
            doses.append(dose)
            taus.append(torch.tensor(INTERVALS_H[t_idx]))
            aucs.append(auc)
        return torch.stack(doses), torch.stack(taus), torch.stack(aucs)


def model():
    torch.manual_seed(5913)
    return VancomycinDosing().eval()


def make_ward(rows):
    # age, weight kg, serum creatinine mg/dL, female, on haemodialysis
    return (torch.tensor(rows, dtype=torch.float32),)


def example_inputs():
    return make_ward([[45.0, 80.0, 0.9, 0.0, 0.0],     # normal renal function, q8-12h
                      [72.0, 60.0, 0.6, 1.0, 0.0],     # elderly woman, SCr floored
                      [58.0, 95.0, 1.8, 0.0, 0.0],     # moderate CKD, q24h
                      [66.0, 70.0, 7.5, 1.0, 1.0]])    # haemodialysis


def dynamic_shapes():
    return ({0: torch.export.Dim("patients", min=2, max=10)},)


def verify_inputs():
    ex = example_inputs()
    # 2 patients: young trauma patient with augmented renal clearance (dose maxed,
    # interval shortened to q8h, still low -> stop) and an 88-year-old with CrCl ~ 5
    # not on dialysis (minimum dose at q48h still too high -> stop, dose by levels)
    extremes = make_ward([[22.0, 110.0, 0.5, 0.0, 0.0], [88.0, 40.0, 4.6, 1.0, 0.0]])
    # 10 patients across renal function bands
    ward = make_ward([[30.0, 70.0, 0.8, 1.0, 0.0], [50.0, 120.0, 1.1, 0.0, 0.0],
                      [67.0, 55.0, 1.3, 1.0, 0.0], [80.0, 55.0, 2.9, 0.0, 0.0],
                      [40.0, 90.0, 3.0, 0.0, 0.0], [35.0, 60.0, 6.0, 1.0, 1.0],
                      [55.0, 75.0, 1.0, 0.0, 0.0], [76.0, 85.0, 0.7, 0.0, 0.0],
                      [62.0, 48.0, 0.9, 1.0, 0.0], [28.0, 140.0, 1.4, 0.0, 0.0]])
    return [ex, extremes, ward]
